package golang_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit/golang"
	"github.com/cetpgen/cetpgen/gen/internal/synth"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// goldenAndSynth are the golden specs and a synthetic Provider of the
// given number of tools.
func goldenAndSynth(t *testing.T, tools int) []*ir.Provider {
	t.Helper()
	var ps []*ir.Provider
	for _, dir := range goldenCases(t) {
		ps = append(ps, load(t, dir)[0])
	}
	dir := filepath.Join(t.TempDir(), "synth")
	if err := synth.Write(dir, tools); err != nil {
		t.Fatal(err)
	}
	return append(ps, load(t, dir)[0])
}

// TestLayUnitMatchesGofmt proves that every unit of the golden specs'
// and a synthetic Provider's Go files that the fast layout accepts is
// laid out in exactly the bytes go/format prints for it, and that the
// layout accepts the units that make up most of a large Provider's
// code: the synthetic Provider's types, registrations and client
// methods.
func TestLayUnitMatchesGofmt(t *testing.T) {
	for _, p := range goldenAndSynth(t, 50) {
		units, err := golang.UnitLayouts(p)
		if err != nil {
			t.Fatal(err)
		}
		known := 0
		for i, u := range units {
			if !u.Known {
				t.Logf("%s: %s unit %d goes through go/format:\n%s", p.Slug, u.File, i, u.Raw)
				continue
			}
			known++
			if !bytes.Equal(u.Laid, u.Formatted) {
				t.Errorf("%s: %s unit %d laid out as\n%s\ngofmt prints\n%s", p.Slug, u.File, i, u.Laid, u.Formatted)
			}
		}
		t.Logf("%s: %d of %d units laid out", p.Slug, known, len(units))
		if p.Slug == "synth" && known < len(units)*9/10 {
			t.Errorf("synth: only %d of %d units laid out", known, len(units))
		}
	}
}

// TestUnitsCutApart proves that the units of every chunk rendered
// together cut apart at their marks into one piece per unit, so the
// emitter never falls back to rendering each unit alone.
func TestUnitsCutApart(t *testing.T) {
	for _, p := range goldenAndSynth(t, 50) {
		n, err := golang.CutApart(p)
		if err != nil {
			t.Fatalf("%s: %v", p.Slug, err)
		}
		if n == 0 {
			t.Fatalf("%s: no chunk checked", p.Slug)
		}
	}
}
