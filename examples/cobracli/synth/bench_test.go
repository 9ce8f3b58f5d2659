package synth

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"

	gen "github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// Tools is the size of the benchmark catalog.
const Tools = 1000

var (
	once   sync.Once
	result *gen.Result
	errRes error
)

// built generates the 1,000-tool catalog once per test binary.
func built(tb testing.TB) *gen.Result {
	once.Do(func() { result, errRes = gen.Build(Input(Tools)) })
	if errRes != nil {
		tb.Fatal(errRes)
	}
	return result
}

// TestSynthCatalogPassesGates generates a 200-tool catalog through every
// gate twice at once, each generation from its own cobra tree, and
// requires the same bytes from both (the benchmarks use 1,000 tools;
// -race makes those slow).
func TestSynthCatalogPassesGates(t *testing.T) {
	in := Input(200)
	var res [2]*gen.Result
	var errs [2]error
	var wg sync.WaitGroup
	for i := range res {
		wg.Go(func() { res[i], errs[i] = gen.Build(in) })
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res[0].Data, res[1].Data) || !bytes.Equal(res[0].Index, res[1].Index) {
		t.Fatal("two generations from the same sources differ")
	}
	if n := res[0].Registry.ToolCount(); n != 200 {
		t.Fatalf("tools = %d", n)
	}
}

// BenchmarkGenerate is one generation: bind, resolve, gate, serialize and
// the delivery gates, what the catalog target runs once.
func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := gen.Build(Input(Tools)); err != nil {
			b.Fatal(err)
		}
	}
}

// benchQuery opens the catalog and runs q each iteration, as one CLI
// process does.
func benchQuery(b *testing.B, q catalog.Query) {
	res := built(b)
	b.ResetTimer()
	for b.Loop() {
		c, err := catalog.Open(res.Data, res.Index)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Write(io.Discard, q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQueryLeaf(b *testing.B) {
	benchQuery(b, catalog.Query{Path: "prod12 group3 create"})
}

func BenchmarkQueryLeafCompact(b *testing.B) {
	benchQuery(b, catalog.Query{Path: "prod12 group3 create", Compact: true})
}

func BenchmarkQueryOverview(b *testing.B) { benchQuery(b, catalog.Query{}) }

func BenchmarkQueryProduct(b *testing.B) { benchQuery(b, catalog.Query{Path: "prod12"}) }

func BenchmarkQueryGroup(b *testing.B) { benchQuery(b, catalog.Query{Path: "prod12 group3"}) }

func BenchmarkQueryAll(b *testing.B) { benchQuery(b, catalog.Query{All: true}) }
