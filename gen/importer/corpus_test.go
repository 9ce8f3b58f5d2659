package importer

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/validate"
)

// repoRoot is the module root, seen from this package.
const repoRoot = "../.."

// corpusSlug names the corpus spec directory and its output packages.
const corpusSlug = "zz-import-corpus"

// TestCorpusEndToEnd imports the 204-tool corpus, validates it with no
// error, generates every target, builds and vets the generated Go
// Provider and Consumer CLI, parses the manifests as XML, and asks the
// built CLI for the schema of every tool at its default command path.
func TestCorpusEndToEnd(t *testing.T) {
	data, err := os.ReadFile(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), corpusSlug)
	res, err := MCP(data, Options{Dir: dir, Source: corpusFile, Package: "com.example.corpus", Name: "Corpus"})
	if err != nil || res.Diags.HasErrors() {
		t.Fatalf("import: %v %v", err, res.Diags)
	}
	writeFiles(t, dir, res.Files)
	providers, l, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil || l.HasErrors() || len(providers) != 1 {
		t.Fatalf("the imported corpus does not validate: %v\n%v", err, l)
	}
	p := providers[0]
	if len(p.Tools) != res.Tools || res.Tools < 200 {
		t.Fatalf("%d tools validated, %d imported", len(p.Tools), res.Tools)
	}
	plan, err := gen.Plan(providers, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	writeFiles(t, out, plan.Files)
	tempModule(t, out)
	goTool(t, out, "vet", "./go/"+corpusSlug, "./cli/"+corpusSlug)
	bin := filepath.Join(t.TempDir(), "cetp-corpus")
	goTool(t, out, "build", "-o", bin, "./cli/"+corpusSlug)
	checkXML(t, out, plan.Files)
	for _, tool := range p.Tools {
		path := validate.DefaultCLIPath(p.CLIProduct, tool.Name)
		cmd := exec.Command(bin, "schema", path, "--compact")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("schema %q: %v %s", path, err, stderr.String())
			continue
		}
		var leaf struct {
			Canonical string `json:"canonical_path"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &leaf); err != nil || leaf.Canonical != p.CLIProduct+"."+tool.Name {
			t.Errorf("schema %q answers %v %.200s", path, err, stdout.String())
		}
	}
}

func writeFiles(t *testing.T, root string, files []emit.File) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tempModule makes out a module that uses this repository's runtime
// (a replace directive and a copy of go.sum), so the generated packages
// build and vet where they were written.
func tempModule(t *testing.T, out string) {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := "module example.com/corpus\n\ngo 1.26\n\nrequire github.com/cetpgen/cetpgen v0.0.0\n\nreplace github.com/cetpgen/cetpgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(out, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
}

func goTool(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// checkXML parses every generated XML file to its end.
func checkXML(t *testing.T, out string, files []emit.File) {
	t.Helper()
	n := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".xml") {
			continue
		}
		n++
		dec := xml.NewDecoder(bytes.NewReader(f.Data))
		for {
			_, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Errorf("%s: %v", f.Path, err)
				break
			}
		}
	}
	if n == 0 {
		t.Error("no manifest generated")
	}
}

// validateDir runs the whole check stage on a spec directory.
func validateDir(t *testing.T, dir string) diag.List {
	t.Helper()
	_, l, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
