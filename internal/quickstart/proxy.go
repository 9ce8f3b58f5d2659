package quickstart

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Module is this repository's module path.
const Module = "github.com/cetpgen/cetpgen"

// moduleFiles lists the files of the module rooted at repo as git sees
// them in the working tree (tracked and untracked, ignored files left
// out, deleted ones skipped), without the nested modules (directories
// with a go.mod of their own), which a module zip never holds.
func moduleFiles(repo string) ([]string, error) {
	out, err := exec.Command("git", "-C", repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	var files, nested []string
	seen := map[string]bool{}
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		if fi, err := os.Lstat(filepath.Join(repo, f)); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		files = append(files, f)
		if path.Base(f) == "go.mod" && f != "go.mod" {
			nested = append(nested, path.Dir(f)+"/")
		}
	}
	var kept []string
	for _, f := range files {
		inNested := false
		for _, n := range nested {
			inNested = inNested || strings.HasPrefix(f, n)
		}
		if !inNested {
			kept = append(kept, f)
		}
	}
	sort.Strings(kept)
	return kept, nil
}

// WriteProxy writes a GOPROXY directory under dir that serves the module
// at repo as one pseudo-version named after its content, and returns that
// version.
func WriteProxy(repo, dir string) (string, error) {
	files, err := moduleFiles(repo)
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(sum, "%s %d\n", f, len(data))
		sum.Write(data)
	}
	version := "v0.0.0-20260101000000-" + hex.EncodeToString(sum.Sum(nil))[:12]
	at := filepath.Join(dir, filepath.FromSlash(Module), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return "", err
	}
	zipped, err := moduleZip(repo, version, files)
	if err != nil {
		return "", err
	}
	gomod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		return "", err
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": fmt.Appendf(nil, `{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`, version),
		version + ".mod":  gomod,
		version + ".zip":  zipped,
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return "", err
		}
	}
	return version, nil
}

// moduleZip is the module zip of files: each under module@version/.
func moduleZip(repo, version string, files []string) ([]byte, error) {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			return nil, err
		}
		fw, err := w.Create(Module + "@" + version + "/" + f)
		if err != nil {
			return nil, err
		}
		if _, err := fw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
