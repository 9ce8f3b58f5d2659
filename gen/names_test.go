package gen_test

import (
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/golang"
	"github.com/cetpgen/cetpgen/gen/emit/kotlin"
	"github.com/cetpgen/cetpgen/gen/emit/manifest"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// TestCrossTargetNamesComeFromTheIR renames, in the IR of specs/alerts,
// every name the IR allocates for a target (the Kotlin Provider, base and
// Service classes and their JVM names, each tool's Go and Kotlin methods
// and objects, each declared schema type's Go and Kotlin names) to a
// marker, then runs the Go, Kotlin and manifest emitters: each marker must
// appear in the output, and the manifest must declare exactly the marked
// classes. An emitter that derived a name itself instead would miss its
// marker.
func TestCrossTargetNamesComeFromTheIR(t *testing.T) {
	ps, diags, err := gen.Check(gen.OSSource, []string{filepath.Join("..", "specs", "alerts")})
	if err != nil || diags.HasErrors() || len(ps) != 1 {
		t.Fatalf("check: %v %v", err, diags)
	}
	p := ps[0]
	goNames, ktNames := markNames(p)

	goOut := generated(t, golang.Generate, p)
	for _, n := range goNames {
		if !strings.Contains(goOut, n) {
			t.Errorf("the Go output does not use the IR's name %s", n)
		}
	}
	ktOut := generated(t, kotlin.Generate, p)
	for _, n := range ktNames {
		if !strings.Contains(ktOut, n) {
			t.Errorf("the Kotlin output does not use the IR's name %s", n)
		}
	}
	declared := manifestClasses(t, p)
	for _, want := range []string{p.Kotlin.QualifiedService, p.Kotlin.QualifiedClass} {
		if !declared[want] {
			t.Errorf("the manifest does not declare %s; it declares %v", want, declared)
		}
	}
	if len(declared) != 2 {
		t.Errorf("the manifest declares %v, want only the IR's two classes", declared)
	}
}

// markNames replaces every target name the IR allocated with a marker and
// returns the Go and the Kotlin markers.
func markNames(p *ir.Provider) (goNames, ktNames []string) {
	k := &p.Kotlin
	k.Class, k.Base, k.Service = "MarkProvider", "MarkProviderBase", "MarkService"
	k.QualifiedClass, k.QualifiedService = "org.mark.MarkProvider", "org.mark.MarkService"
	ktNames = append(ktNames, k.Class, k.Base, k.Service)
	for i, t := range p.Tools {
		n := &t.Names
		n.GoMethod, n.GoInputSchema, n.GoOutputSchema = fmt.Sprintf("MarkMethod%d", i), fmt.Sprintf("markIn%d", i), fmt.Sprintf("markOut%d", i)
		n.KotlinObject, n.KotlinMethod = fmt.Sprintf("MarkObject%d", i), fmt.Sprintf("markMethod%d", i)
		goNames = append(goNames, n.GoMethod, n.GoInputSchema, n.GoOutputSchema)
		ktNames = append(ktNames, n.KotlinObject, n.KotlinMethod)
	}
	for i, d := range p.Decls {
		d.GoName, d.KotlinName = fmt.Sprintf("MarkGoType%d", i), fmt.Sprintf("MarkKtType%d", i)
		goNames = append(goNames, d.GoName)
		ktNames = append(ktNames, d.KotlinName)
	}
	return goNames, ktNames
}

// generated runs one emitter and joins its files.
func generated(t *testing.T, generate func(*ir.Provider) ([]emit.File, error), p *ir.Provider) string {
	t.Helper()
	files, err := generate(p)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		b.Write(f.Data)
	}
	return b.String()
}

// manifestClasses returns the android:name of every <service> and
// <provider> the manifest fragments declare.
func manifestClasses(t *testing.T, p *ir.Provider) map[string]bool {
	t.Helper()
	files, err := manifest.Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range files {
		d := xml.NewDecoder(strings.NewReader(string(f.Data)))
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			if e, ok := tok.(xml.StartElement); ok && (e.Name.Local == "service" || e.Name.Local == "provider") {
				for _, a := range e.Attr {
					if a.Name.Local == "name" {
						names[a.Value] = true
					}
				}
			}
		}
	}
	return names
}
