// Package buildversion says which version of a program is running, from
// the build information the Go toolchain records in every binary: the
// module version for `go install …@version`, the VCS revision for a build
// in a clone, and the version of the cetpgen runtime a program was built
// with. cetpgen, cetp and every generated Consumer CLI print it for
// --version.
package buildversion

import (
	"runtime/debug"
	"strings"
)

// RuntimeModule is the module path of cetpgen and its runtime.
const RuntimeModule = "github.com/cetpgen/cetpgen"

// Line returns what `program --version` prints: the program's name, the
// version of its main module, and, when the main module is not cetpgen's
// own, the version of the cetpgen runtime it depends on, then the Go
// version. For example
//
//	cetpgen v0.4.0 (go1.26.8)
//	cetp-notes v1.2.0 (cetpgen runtime v0.4.0, go1.26.8)
func Line(program string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return program + " (no build information)"
	}
	return line(program, info)
}

func line(program string, info *debug.BuildInfo) string {
	var b strings.Builder
	b.WriteString(program + " " + mainVersion(info) + " (")
	if info.Main.Path != RuntimeModule {
		b.WriteString("cetpgen runtime " + depVersion(info, RuntimeModule) + ", ")
	}
	b.WriteString(info.GoVersion + ")")
	return b.String()
}

// mainVersion is the main module's version, or for a build from a work
// tree (version "(devel)") the VCS revision it was built at, marked
// "+dirty" when the tree had uncommitted changes.
func mainVersion(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if settings["vcs.modified"] == "true" {
		rev += "+dirty"
	}
	return "(devel " + rev + ")"
}

// depVersion is the version of the dependency path, following a replace
// directive; "(none)" when the program does not depend on it.
func depVersion(info *debug.BuildInfo, path string) string {
	for _, d := range info.Deps {
		if d.Path != path {
			continue
		}
		if d.Replace != nil {
			if d.Replace.Version != "" {
				return d.Replace.Version
			}
			return "(replaced by " + d.Replace.Path + ")"
		}
		return d.Version
	}
	return "(none)"
}
