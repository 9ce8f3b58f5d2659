package gen

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/gen/validate"
)

// Source opens a spec directory by the name the user gave it. The default,
// OSSource, reads the file system; a git revision can be another.
type Source func(dir string) (fs.FS, error)

// OSSource opens dir on the local file system.
func OSSource(dir string) (fs.FS, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return os.DirFS(dir), nil
}

// Check loads, validates and resolves the spec directories dirs (in sorted
// order, so the result does not depend on the order given). It returns the
// IR of every Provider when no diagnostic is an error.
func Check(open Source, dirs []string) ([]*ir.Provider, diag.List, error) {
	// The meta-schemas compile while the first spec loads rather than
	// after it; Validate waits for them if they are not ready.
	go validate.Prepare()
	dirs = sortedUnique(dirs)
	var all diag.List
	var providers []*ir.Provider
	for _, dir := range dirs {
		p, l, err := checkOne(open, dir)
		if err != nil {
			return nil, nil, err
		}
		all.Add(l...)
		if p != nil {
			providers = append(providers, p)
		}
	}
	all.Add(crossProvider(providers)...)
	if all.HasErrors() {
		return nil, all.Sorted(), nil
	}
	return providers, all.Sorted(), nil
}

func checkOne(open Source, dir string) (*ir.Provider, diag.List, error) {
	fsys, err := open(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open spec directory: %w", err)
	}
	set, l, err := spec.Load(fsys, dir)
	if err != nil {
		return nil, nil, err
	}
	v, vl, err := validate.Validate(set)
	if err != nil {
		return nil, nil, fmt.Errorf("validate %s: %w", dir, err)
	}
	l.Add(vl...)
	if v == nil || l.HasErrors() {
		return nil, l, nil
	}
	p, err := ir.Build(v)
	if err != nil {
		return nil, nil, err
	}
	return p, l, nil
}

// crossProvider checks what must be unique across all Providers of one run:
// their ids and their output directories.
func crossProvider(ps []*ir.Provider) diag.List {
	var l diag.List
	ids, slugs, servers := map[string]string{}, map[string]string{}, map[string]string{}
	for _, p := range ps {
		if other, dup := ids[p.ID]; dup {
			l.Errorf(p.PosOf("/provider/id"), "duplicate-provider", "provider id %q is also used by %s", p.ID, other)
		}
		if other, dup := slugs[p.Slug]; dup {
			l.Errorf(p.PosOf(""), "duplicate-provider", "spec directory name %q is also used by %s; output directories would collide", p.Slug, other)
		}
		if other, dup := servers[p.Targets.GoServerDir]; dup {
			l.Errorf(p.PosOf("/targets/go/server"), "duplicate-provider", "Go server directory %s is also the one of %s; set targets.go.server to another directory under cmd/", p.Targets.GoServerDir, other)
		}
		ids[p.ID], slugs[p.Slug], servers[p.Targets.GoServerDir] = p.File, p.File, p.File
	}
	return l
}

func sortedUnique(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	seen := map[string]bool{}
	for _, d := range dirs {
		c := filepath.Clean(d)
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// ExpandDirs turns the user's arguments into spec directories: a directory
// with a provider.yaml is a spec; a directory without one that holds spec
// directories stands for them all; anything else is taken as a spec (and
// reported as missing its provider.yaml).
func ExpandDirs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		dirs, err := expand(a)
		if err != nil {
			return nil, err
		}
		out = append(out, dirs...)
	}
	return out, nil
}

func expand(dir string) ([]string, error) {
	if isSpecDir(dir) {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read spec directory: %w", err)
	}
	var subs []string
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if e.IsDir() && isSpecDir(sub) {
			subs = append(subs, sub)
		}
	}
	if len(subs) == 0 {
		return []string{dir}, nil
	}
	return subs, nil
}

func isSpecDir(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, spec.ProviderFile))
	return err == nil && !info.IsDir()
}
