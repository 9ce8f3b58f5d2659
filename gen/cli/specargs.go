package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// specArgs is what the arguments of validate and generate name: the spec
// directories to check and, when spec files were named instead of
// directories (as pre-commit hooks and editors do), those files.
type specArgs struct {
	dirs []string
	// files are the named files' display paths; nil when only
	// directories were named.
	files map[string]bool
}

// errNoSpecs is the error of a run with no arguments outside a project.
var errNoSpecs = errors.New("no " + DefaultSpecDir + "/ here: pass a spec directory or run cetpgen init")

// resolveSpecArgs turns arguments into spec directories. A file argument
// must be a spec's provider.yaml or a file in its tools/ directory; its
// whole spec is checked, since a tool's rules depend on provider.yaml and
// on the other tools.
func resolveSpecArgs(args []string) (specArgs, error) {
	if len(args) == 0 {
		if _, err := os.Stat(DefaultSpecDir); errors.Is(err, fs.ErrNotExist) {
			return specArgs{}, errNoSpecs
		}
		args = []string{DefaultSpecDir}
	}
	var out specArgs
	var dirArgs []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil || info.IsDir() {
			dirArgs = append(dirArgs, a) // a missing path is reported by the expansion
			continue
		}
		dir, err := specDirOf(a)
		if err != nil {
			return specArgs{}, err
		}
		if out.files == nil {
			out.files = map[string]bool{}
		}
		out.files[path.Clean(filepath.ToSlash(a))] = true
		out.dirs = append(out.dirs, dir)
	}
	dirs, err := gen.ExpandDirs(dirArgs)
	if err != nil {
		return specArgs{}, err
	}
	out.dirs = append(out.dirs, dirs...)
	return out, nil
}

// specDirOf returns the spec directory of a spec file.
func specDirOf(file string) (string, error) {
	dir, base := filepath.Split(filepath.Clean(file))
	dir = filepath.Clean(dir)
	switch {
	case base == spec.ProviderFile:
		return dir, nil
	case filepath.Base(dir) == spec.ToolsDir && strings.HasSuffix(base, ".yaml"):
		return filepath.Dir(dir), nil
	}
	return "", fmt.Errorf("%s is not a spec file: name a spec directory, its %s, or a file in its %s/", file, spec.ProviderFile, spec.ToolsDir)
}

// only keeps the diagnostics of the named files, when files were named.
func (a specArgs) only(l diag.List) diag.List {
	if a.files == nil {
		return l
	}
	var out diag.List
	for _, d := range l {
		if a.files[path.Clean(d.Pos.File)] {
			out = append(out, d)
		}
	}
	return out
}
