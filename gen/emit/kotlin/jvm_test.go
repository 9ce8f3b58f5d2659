package kotlin_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/kotlin"
	"github.com/cetpgen/cetpgen/gen/emit/manifest"
	"github.com/cetpgen/cetpgen/gen/importer"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/localschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// jvmTimeout bounds the kotlinc run and the java run each. On the
// project's 2-core machines kotlinc takes about three minutes of CPU and
// the tests, Robolectric's sandbox included, under half a minute
// (BENCHMARKS.md).
const jvmTimeout = 15 * time.Minute

// toolchain is what the JVM tests run with.
type toolchain struct {
	kotlinc string
	// classPath is the class path of scripts/kotlin-deps.sh, for kotlinc
	// and java alike.
	classPath string
	// androidAll is Robolectric's offline dependency directory.
	androidAll string
}

// findToolchain locates kotlinc (scripts/kotlinc.sh, or $KOTLINC) and the
// jars of scripts/kotlin-deps.sh for the current pom (or $KOTLIN_DEPS). Both are installed by
// `make tools`. Missing, the test fails under CI=true and is skipped,
// saying why, elsewhere.
func findToolchain(t *testing.T) toolchain {
	t.Helper()
	missing := func(what string) {
		msg := what + " missing: run `make tools` (scripts/kotlinc.sh and scripts/kotlin-deps.sh install it under .cache/)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var tc toolchain
	if tc.kotlinc = os.Getenv("KOTLINC"); tc.kotlinc == "" {
		tc.kotlinc = newest(t, filepath.Join(repoRoot, ".cache", "kotlinc", "*", "package", "bin", "kotlinc"))
	}
	if tc.kotlinc == "" {
		missing("kotlinc")
	}
	deps := os.Getenv("KOTLIN_DEPS")
	if deps == "" {
		// scripts/kotlin-deps.sh names the directory after the pom's hash.
		pom, err := os.ReadFile(filepath.Join(repoRoot, "scripts", "kotlin-deps", "pom.xml"))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(pom)
		dir := filepath.Join(repoRoot, ".cache", "kotlin-deps", hex.EncodeToString(sum[:])[:16])
		if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
			deps = dir
		}
	}
	if deps == "" {
		missing("the Kotlin test jars")
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(deps, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(data))
	}
	tc.classPath, tc.androidAll = read("compile.classpath"), read("android-all.dir")
	return tc
}

// newest returns the absolute path of the last match of pattern that is
// not a partial download, or "".
func newest(t *testing.T, pattern string) string {
	t.Helper()
	all, _ := filepath.Glob(pattern)
	var found []string
	for _, f := range all {
		if !strings.Contains(f, ".partial.") {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		return ""
	}
	abs, err := filepath.Abs(found[len(found)-1])
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestKotlinOnTheJVM compiles the generated Kotlin of every example spec,
// test spec and the Go generator's torture spec against the real Android
// framework (android-all), kotlinx-serialization-json and the ClawSeed SDK
// stand-in of sdkstubs/, with the JUnit tests of testdata/harness, in one
// kotlinc run; a warning in generated code fails the test. It then runs
// the JUnit tests with java, Robolectric giving the generated
// ContentProviders and Services a working framework: the round trips of
// testdata/roundtrip.txt, the alerts dispatch checks, and for every
// Provider its schemas against the spec's canonical JSON, its manifest
// fragment against its classes and its CETP v1 subset.
func TestKotlinOnTheJVM(t *testing.T) {
	tc := findToolchain(t)
	work := t.TempDir()
	src := filepath.Join(work, "src")
	ps := load(t, specDirs(t))
	for _, p := range ps {
		writeFiles(t, src, generate(t, p))
	}
	// The Go generator's torture spec (reserved words, colliding and
	// non-ASCII names, hostile texts, every union form) must compile too.
	gt := load(t, []string{goTorture})
	for _, p := range gt {
		writeFiles(t, filepath.Join(src, "gotorture"), generate(t, p))
	}
	// The schema-model keyword corpus of the Go emitter, with its instances.
	corpus := load(t, []string{goCorpus})
	for _, p := range corpus {
		writeFiles(t, filepath.Join(src, "corpus"), generate(t, p))
	}
	gt = append(gt, corpus...)
	// The validator cases: keywords beyond the corpus, with instances.
	cases := load(t, []string{validatorCasesDir})
	for _, p := range cases {
		writeFiles(t, filepath.Join(src, "validators"), generate(t, p))
	}
	gt = append(gt, cases...)
	writeFile(t, filepath.Join(src, "harness", "ValidatorCases.kt"), validatorCases(t, cases[0]))
	// The 205-tool import corpus of gen/importer: its many large schemas
	// must compile (no JVM method or constant limit) and load.
	imported := importCorpus(t)
	writeFiles(t, filepath.Join(src, "importcorpus"), generate(t, imported))
	gt = append(gt, imported)
	writeFile(t, filepath.Join(src, "harness", "CorpusTrips.kt"), corpusTrips(t, corpus[0], filepath.Join(src, "corpus")))
	writeFile(t, filepath.Join(src, "harness", "RoundTrips.kt"), roundTrips(t))
	writeFile(t, filepath.Join(src, "harness", "Fixtures.kt"), fixtures(t, append(ps, gt...)))
	generated := kotlinSources(t, src)
	sources := append(kotlinSources(t, filepath.Join(repoRoot, "sdkstubs"), filepath.Join("testdata", "harness")), generated...)
	classes := filepath.Join(work, "classes")

	ctx, cancel := context.WithTimeout(context.Background(), jvmTimeout)
	defer cancel()
	// C1 only and the serial collector: kotlinc is a short-lived JVM, and on
	// this project's 2-core machines this cuts its CPU time about threefold.
	// A heap of 2 GB: with the import corpus (52 000 lines), kotlinc's
	// default 512 MB spends most of its time collecting garbage.
	args := append([]string{"-J-Xmx2g", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-jvm-target", "17",
		"-classpath", tc.classPath, "-d", classes}, sources...)
	start := time.Now()
	compile := exec.CommandContext(ctx, tc.kotlinc, args...)
	out, err := compile.CombinedOutput()
	t.Logf("kotlinc: %d files in %v (%v CPU)", len(sources), time.Since(start).Round(time.Millisecond), cpu(compile))
	if err != nil {
		t.Fatalf("kotlinc failed: %v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Logf("kotlinc output:\n%s", out)
	}
	if w := generatedWarnings(string(out), src); len(w) > 0 {
		t.Errorf("kotlinc warns about generated code:\n%s", strings.Join(w, "\n"))
	}

	ctx, cancel = context.WithTimeout(context.Background(), jvmTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-Drobolectric.offline=true", "-Drobolectric.dependency.dir="+tc.androidAll,
		"-Drobolectric.logging.enabled=false",
		"-cp", classes+string(os.PathListSeparator)+tc.classPath,
		"org.junit.runner.JUnitCore", "harness.RoundTripTest", "harness.CorpusTest", "harness.AlertsTest", "harness.ProvidersTest", "harness.DurableTest")
	cmd.Dir = work
	start = time.Now()
	out, err = cmd.CombinedOutput()
	t.Logf("java: JUnit in %v (%v CPU)\n%s", time.Since(start).Round(time.Millisecond), cpu(cmd), out)
	if err != nil || !strings.Contains(string(out), "\nOK (") {
		t.Fatalf("the JVM tests failed: %v", err)
	}
}

// importCorpusFile is the MCP tool list of gen/importer's corpus test.
const importCorpusFile = repoRoot + "/gen/importer/testdata/corpus/mcp-tools.json"

// importCorpus imports importCorpusFile as gen/importer's corpus test
// does and returns its one Provider.
func importCorpus(t *testing.T) *ir.Provider {
	t.Helper()
	data, err := os.ReadFile(importCorpusFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "import-corpus")
	res, err := importer.MCP(data, importer.Options{Dir: dir, Source: importCorpusFile, Package: "com.example.importcorpus", Name: "Import corpus"})
	if err != nil || res.Diags.HasErrors() {
		t.Fatalf("import: %v %v", err, res.Diags)
	}
	for _, f := range res.Files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data)
	}
	ps := load(t, []string{dir})
	if len(ps) != 1 || len(ps[0].Tools) < 200 {
		t.Fatalf("import corpus: %d Providers", len(ps))
	}
	return ps[0]
}

// goCorpus is the schema-model keyword corpus of the Go emitter's tests;
// goCorpusInstances holds its valid and invalid instances per tool.
const (
	goCorpus          = repoRoot + "/gen/emit/golang/testdata/specs/corpus"
	goCorpusInstances = repoRoot + "/gen/emit/golang/testdata/corpus/instances.json"
)

// toolObject matches the KDoc and declaration of a tool's types object in
// a generated Types.kt.
var toolObject = regexp.MustCompile(`(?m)^ \* (\w+) converts the input and output of the tool (\S+) .*\n(?: \*.*\n)* \*/\nobject (\w+) \{`)

// corpusTrips renders harness/CorpusTrips.kt: one CorpusTest case per
// instance of goCorpusInstances, decoded and encoded through the input type
// of its tool, with the Go runtime's verdict (valid or invalid).
func corpusTrips(t *testing.T, p *ir.Provider, dir string) []byte {
	t.Helper()
	types, err := filepath.Glob(filepath.Join(dir, "kotlin", p.Slug, "*Types.kt"))
	if err != nil || len(types) != 1 {
		t.Fatalf("corpus Types.kt: %v %v", types, err)
	}
	data, err := os.ReadFile(types[0])
	if err != nil {
		t.Fatal(err)
	}
	objects := map[string]string{}
	for _, m := range toolObject.FindAllStringSubmatch(string(data), -1) {
		if m[1] == m[3] {
			objects[m[2]] = p.Targets.KotlinPackage + "." + m[3]
		}
	}
	raw, err := os.ReadFile(goCorpusInstances)
	if err != nil {
		t.Fatal(err)
	}
	var instances map[string]struct{ Valid, Invalid []json.RawMessage }
	if err := json.Unmarshal(raw, &instances); err != nil {
		t.Fatal(err)
	}
	validators := p.Targets.KotlinPackage + "." + p.Targets.KotlinClass + "Validators"
	schemas := goSchemas(t, p)
	var b strings.Builder
	fmt.Fprintf(&b, "package harness\n\n// spell writes violations as \"instance keyword: message\".\n"+
		"fun spell(vs: List<%s.Violation>): List<String> = vs.map { it.instance + \" \" + it.keyword + \": \" + it.message }\n\n",
		p.Targets.KotlinPackage+"."+p.Targets.KotlinClass+"Validation")
	b.WriteString("fun corpusTrips(c: CorpusChecks) {\n")
	for _, tool := range slices.Sorted(maps.Keys(instances)) {
		obj, ok := objects[tool]
		if !ok {
			t.Fatalf("corpus tool %s: no types object in %s", tool, types[0])
		}
		for _, kind := range []string{"valid", "invalid"} {
			list := instances[tool].Valid
			if kind == "invalid" {
				list = instances[tool].Invalid
			}
			for i, inst := range list {
				name := fmt.Sprintf("%s/%s/%d", tool, kind, i)
				in, out := schemas[tool][0].verdict(t, inst), schemas[tool][1].verdict(t, inst)
				if in != (kind == "valid") {
					t.Fatalf("corpus %s: the Go runtime says valid=%v, instances.json says %s", name, in, kind)
				}
				fmt.Fprintf(&b, "    c.instance(%s, %v, %s, { spell(%s.input(%s, it)) }) { %s.encodeInput(%s.decodeInput(it)) }\n",
					kotlin.StringLiteral(name), in, kotlin.StringLiteral(string(inst)), validators, kotlin.StringLiteral(tool), obj, obj)
				fmt.Fprintf(&b, "    c.verdict(%s, %v, %s) { spell(%s.output(%s, it)) }\n",
					kotlin.StringLiteral(name+" output"), out, kotlin.StringLiteral(string(inst)), validators, kotlin.StringLiteral(tool))
			}
		}
	}
	b.WriteString("}\n\n")
	b.WriteString(regexCases(t))
	b.WriteString("\n// corpusDivergences are the cases of testdata/corpus-divergences.txt.\nval corpusDivergences: Map<String, String> = mapOf(\n")
	for _, d := range divergences(t) {
		fmt.Fprintf(&b, "    %s to %s,\n", kotlin.StringLiteral(d[0]), kotlin.StringLiteral(d[1]))
	}
	b.WriteString(")\n")
	return []byte(b.String())
}

// validatorCasesDir holds the spec of the validator cases, and
// validatorCasesInstances its valid and invalid instances per tool.
const (
	validatorCasesDir       = "testdata/validators/spec"
	validatorCasesInstances = "testdata/validators/instances.json"
)

// validatorCases renders harness/ValidatorCases.kt: every instance of
// validatorCasesInstances checked by the input and the output validator of
// its tool against the Go runtime's verdict, which must be the one the
// file gives.
func validatorCases(t *testing.T, p *ir.Provider) []byte {
	t.Helper()
	raw, err := os.ReadFile(validatorCasesInstances)
	if err != nil {
		t.Fatal(err)
	}
	var instances map[string]struct{ Valid, Invalid []json.RawMessage }
	if err := json.Unmarshal(raw, &instances); err != nil {
		t.Fatal(err)
	}
	validators := p.Targets.KotlinPackage + "." + p.Targets.KotlinClass + "Validators"
	schemas := goSchemas(t, p)
	var b strings.Builder
	fmt.Fprintf(&b, "package harness\n\n// spellCase writes violations as \"instance keyword: message\".\n"+
		"private fun spellCase(vs: List<%s.Violation>): List<String> = vs.map { it.instance + \" \" + it.keyword + \": \" + it.message }\n\n",
		p.Targets.KotlinPackage+"."+p.Targets.KotlinClass+"Validation")
	b.WriteString("fun validatorCases(c: CorpusChecks) {\n")
	for _, tool := range slices.Sorted(maps.Keys(instances)) {
		if _, ok := schemas[tool]; !ok {
			t.Fatalf("validator cases: no tool %s", tool)
		}
		for _, kind := range []string{"valid", "invalid"} {
			list := instances[tool].Valid
			if kind == "invalid" {
				list = instances[tool].Invalid
			}
			for i, inst := range list {
				name := fmt.Sprintf("validators %s/%s/%d", tool, kind, i)
				for side, fn := range []string{"input", "output"} {
					if got := schemas[tool][side].verdict(t, inst); got != (kind == "valid") {
						t.Fatalf("%s: the Go runtime says valid=%v on the %s schema", name, got, fn)
					}
					fmt.Fprintf(&b, "    c.verdict(%s, %v, %s) { spellCase(%s.%s(%s, it)) }\n", kotlin.StringLiteral(name+" "+fn),
						kind == "valid", kotlin.StringLiteral(string(inst)), validators, fn, kotlin.StringLiteral(tool))
				}
			}
		}
	}
	// Twelve members each failing propertyNames and additionalProperties:
	// the violations stop at the bound, the same each time.
	many := map[string]int{}
	for i := range 12 {
		many[fmt.Sprintf("Z%d", i)] = i
	}
	inst, err := json.Marshal(map[string]any{"names": many})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "    c.bounded(\"validators strings: many violations\", %s) { spellCase(%s.input(\"strings\", it)) }\n",
		kotlin.StringLiteral(string(inst)), validators)
	b.WriteString("}\n")
	return []byte(b.String())
}

// regexCases renders regexCases(c): every pair of testdata/regex.txt with
// Go's verdict and the pattern's Java translation.
func regexCases(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "regex.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("fun regexCases(c: RegexChecks) {\n")
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var pair [2]string
		if err := json.Unmarshal([]byte(line), &pair); err != nil {
			t.Fatalf("regex.txt:%d: %v", n+1, err)
		}
		java, err := kotlin.JavaRegex(pair[0])
		if err != nil {
			t.Fatalf("regex.txt:%d: %v", n+1, err)
		}
		match := regexp.MustCompile(pair[0]).MatchString(pair[1])
		fmt.Fprintf(&b, "    c.match(%s, %s, %s, %v)\n", kotlin.StringLiteral(fmt.Sprintf("regex.txt:%d %s", n+1, pair[0])),
			kotlin.StringLiteral(java), kotlin.StringLiteral(pair[1]), match)
	}
	b.WriteString("}\n")
	return b.String()
}

// goSchema is one tool schema compiled by the Go runtime's schema compiler.
type goSchema struct{ s *jsonschema.Schema }

// goSchemas compiles every tool's input and output schema as the Go
// runtime does (runtime/localschema), to give each instance the runtime's
// own verdict.
func goSchemas(t *testing.T, p *ir.Provider) map[string][2]goSchema {
	t.Helper()
	out := map[string][2]goSchema{}
	for _, tool := range p.Tools {
		var pair [2]goSchema
		for i, s := range []*ir.Schema{tool.Input, tool.Output} {
			doc, err := localschema.Decode(s.JSON)
			if err != nil {
				t.Fatal(err)
			}
			sch, err := localschema.Compile(fmt.Sprintf("urn:cetp:tool:%s:%d", tool.Name, i), doc)
			if err != nil {
				t.Fatalf("tool %s: %v", tool.Name, err)
			}
			pair[i] = goSchema{sch}
		}
		out[tool.Name] = pair
	}
	return out
}

// verdict reports whether the Go runtime accepts the instance.
func (g goSchema) verdict(t *testing.T, inst json.RawMessage) bool {
	t.Helper()
	v, err := localschema.Decode(inst)
	if err != nil {
		t.Fatal(err)
	}
	return g.s.Validate(v) == nil
}

// divergences reads testdata/corpus-divergences.txt: the corpus instances
// on which the Kotlin types do not (yet) reach the Go runtime's verdict,
// one "tool/valid|invalid/index reason" a line.
func divergences(t *testing.T) [][2]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus-divergences.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("corpus-divergences.txt:%d: want \"case reason\"", n+1)
		}
		out = append(out, [2]string{name, reason})
	}
	return out
}

// cpu is the CPU time a finished command used, for the log.
func cpu(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Round(time.Millisecond)
}

// generatedWarnings returns kotlinc's warnings about files below src (the
// generated code and the fixtures written by this test).
func generatedWarnings(out, src string) []string {
	var w []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "warning:") || strings.Contains(line, ": warning:") {
			if strings.Contains(line, src) {
				w = append(w, line)
			}
		}
	}
	return w
}

// fixtures renders harness/Fixtures.kt: for every Provider the facts of the
// spec the JUnit tests compare the generated code with, and the manifest
// fragment the manifest emitter renders for it.
func fixtures(t *testing.T, ps []*ir.Provider) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("package harness\n\n// Fixtures are written by jvm_test.go from the specs.\nval fixtures: List<Fixture> = listOf(\n")
	for _, p := range ps {
		files, err := manifest.Generate(p)
		if err != nil {
			t.Fatal(err)
		}
		var xml []byte
		for _, f := range files {
			if strings.HasSuffix(f.Path, "/AndroidManifest.xml") {
				xml = f.Data
			}
		}
		if xml == nil {
			t.Fatalf("%s: no AndroidManifest.xml from the manifest emitter", p.Slug)
		}
		versions := make([]string, len(p.Versions))
		for i, v := range p.Versions {
			versions[i] = fmt.Sprint(v)
		}
		fmt.Fprintf(&b, "    Fixture(\n        slug = %s,\n        providerId = %s,\n        authority = %s,\n        versions = listOf(%s),\n        manifest = %s,\n        tools = listOf(\n",
			kotlin.StringLiteral(p.Slug), kotlin.StringLiteral(p.ID), kotlin.StringLiteral(p.Android.Authority),
			strings.Join(versions, ", "), kotlin.StringLiteral(string(xml)))
		tools := append([]*ir.Tool(nil), p.Tools...)
		sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
		for _, tool := range tools {
			fmt.Fprintf(&b, "            ToolFixture(%s, effect = %s, confirmation = %s, scopes = listOf(%s),\n                input = %s,\n                output = %s),\n",
				kotlin.StringLiteral(tool.Name), kotlin.StringLiteral(string(tool.Annotations.Effect)),
				kotlin.StringLiteral(string(tool.Annotations.Confirmation)), scopeList(tool),
				kotlin.StringLiteral(string(tool.Input.JSON)), kotlin.StringLiteral(string(tool.Output.JSON)))
		}
		b.WriteString("        ),\n    ),\n")
	}
	b.WriteString(")\n")
	return []byte(b.String())
}

// scopeList is the tool's scope names as Kotlin string literals.
func scopeList(tool *ir.Tool) string {
	var s []string
	for _, sc := range tool.Scopes {
		s = append(s, kotlin.StringLiteral(sc.Name))
	}
	return strings.Join(s, ", ")
}

// writeFiles writes generated files below dir.
func writeFiles(t *testing.T, dir string, files []emit.File) {
	t.Helper()
	for _, f := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data)
	}
}

// writeFile writes data to path, creating directories.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// kotlinSources lists the .kt files below the roots.
func kotlinSources(t *testing.T, roots ...string) []string {
	t.Helper()
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".kt") {
				out = append(out, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// roundTrips turns testdata/roundtrip.txt into the harness's roundTrips().
func roundTrips(t *testing.T) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "roundtrip.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	b.WriteString("package harness\n\nfun roundTrips(c: Checks) {\n")
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b.WriteString(roundTripCall(t, n, line))
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// roundTripCall is one harness call for a line of roundtrip.txt.
func roundTripCall(t *testing.T, n int, line string) string {
	t.Helper()
	parts := strings.SplitN(line, " ", 3)
	if len(parts) != 3 || (parts[0] != "ok" && parts[0] != "bad") {
		t.Fatalf("roundtrip.txt:%d: want \"ok|bad Type JSON\"", n)
	}
	fn := map[string]string{"ok": "roundTrip", "bad": "rejects"}[parts[0]]
	name := fmt.Sprintf("roundtrip.txt:%d %s", n, parts[1])
	dot := strings.LastIndex(parts[1], ".")
	obj, root := parts[1][:dot], parts[1][dot+1:]
	return fmt.Sprintf("    c.%s(%s, %s) { %s.encode%s(%s.decode%s(it)) }\n", fn, kotlin.StringLiteral(name), kotlin.StringLiteral(parts[2]), obj, root, obj, root)
}
