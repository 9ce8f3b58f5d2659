package catalog

import (
	"testing"
)

func TestBuildFixture(t *testing.T) {
	res, err := Build(fixtureInput())
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Registry.ToolCount(); got != 4 {
		t.Fatalf("tools = %d, want 4", got)
	}
	t.Logf("catalog %d bytes, index %d bytes", len(res.Data), len(res.Index))
}
