package buildversion

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	cases := []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"released cetpgen", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: RuntimeModule, Version: "v0.4.0"}},
			"cetpgen v0.4.0 (go1.26.8)"},
		{"cetpgen from a clone", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: RuntimeModule, Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "81940b9e0a1b2c3d4e5f"}, {Key: "vcs.modified", Value: "true"}}},
			"cetpgen (devel 81940b9e0a1b+dirty) (go1.26.8)"},
		{"a generated CLI", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/notes", Version: "v1.2.0"},
			Deps: []*debug.Module{{Path: RuntimeModule, Version: "v0.4.0"}}},
			"cetpgen v1.2.0 (cetpgen runtime v0.4.0, go1.26.8)"},
		{"a replaced runtime", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/notes"},
			Deps: []*debug.Module{{Path: RuntimeModule, Version: "v0.4.0", Replace: &debug.Module{Path: "../cetpgen"}}}},
			"cetpgen (devel) (cetpgen runtime (replaced by ../cetpgen), go1.26.8)"},
	}
	for _, c := range cases {
		if got := line("cetpgen", &c.info); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestLineOfThisBinary reads the test binary's own build information.
func TestLineOfThisBinary(t *testing.T) {
	if got := Line("x"); !strings.HasPrefix(got, "x ") || !strings.Contains(got, "go1.") {
		t.Errorf("Line = %q", got)
	}
}
