package spec

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/source"
)

// File names inside a spec directory.
const (
	ProviderFile = "provider.yaml"
	ToolsDir     = "tools"
	toolExt      = ".yaml"
)

// Set is one loaded Provider spec directory.
type Set struct {
	// Dir is the directory as the user named it; every Doc path starts with it.
	Dir      string
	Provider *Doc
	// Tools are the parsed tool files, ordered by file name.
	Tools []*Doc
	// ToolFiles counts the tool files found, parsed or not; it exceeds
	// len(Tools) when some failed to parse.
	ToolFiles int
}

// Load reads the spec directory at the root of fsys. dir is the name the
// user gave it, used as the prefix of every diagnostic path. Problems in the
// specs are diagnostics; an error is returned only when the files cannot be
// read at all (a missing directory, a permission problem).
func Load(fsys fs.FS, dir string) (*Set, diag.List, error) {
	set := &Set{Dir: dir}
	var l diag.List
	provider, present, err := readFile(fsys, ProviderFile)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", dir, err)
	}
	if !present {
		l.Errorf(source.FileStart(displayPath(dir, ProviderFile)), "missing-file", "the spec directory has no %s", ProviderFile)
	} else {
		doc, d := Parse(displayPath(dir, ProviderFile), ProviderFile, provider)
		set.Provider = doc
		l.Add(d...)
	}
	tools, n, d, err := loadTools(fsys, dir)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", dir, err)
	}
	set.Tools, set.ToolFiles = tools, n
	l.Add(d...)
	return set, l, nil
}

// loadTools parses every tools/<name>.yaml, in file-name order, on
// GOMAXPROCS workers, and counts the tool files it found.
func loadTools(fsys fs.FS, dir string) ([]*Doc, int, diag.List, error) {
	entries, err := fs.ReadDir(fsys, ToolsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	results := make([]toolLoad, len(entries))
	par.Each(len(entries), func(i int) {
		r := &results[i]
		r.doc, r.diags, r.err = loadTool(fsys, dir, entries[i])
	})
	var l diag.List
	var docs []*Doc
	seen := 0
	for i, r := range results {
		if r.err != nil {
			return nil, 0, nil, r.err
		}
		l.Add(r.diags...)
		if r.doc != nil {
			docs = append(docs, r.doc)
		}
		if isToolFile(entries[i]) {
			seen++
		}
	}
	if seen == 0 {
		l.Errorf(source.FileStart(displayPath(dir, ProviderFile)), "no-tools",
			"the spec declares no tools; add tools/<name>.yaml files")
	}
	return docs, seen, l, nil
}

// toolLoad is the outcome of loading one entry of tools/.
type toolLoad struct {
	doc   *Doc
	diags diag.List
	err   error
}

func isToolFile(e fs.DirEntry) bool {
	return !e.IsDir() && strings.HasSuffix(e.Name(), toolExt) && !strings.HasPrefix(e.Name(), ".")
}

// loadTool parses one entry of tools/, rejecting anything but tool files.
func loadTool(fsys fs.FS, dir string, e fs.DirEntry) (*Doc, diag.List, error) {
	var l diag.List
	rel := path.Join(ToolsDir, e.Name())
	switch {
	case strings.HasPrefix(e.Name(), "."):
		return nil, nil, nil
	case !isToolFile(e):
		l.Errorf(source.FileStart(displayPath(dir, rel)), "stray-file",
			"only tool files named <tool>%s belong in %s/", toolExt, ToolsDir)
		return nil, l, nil
	}
	data, _, err := readFile(fsys, rel)
	if err != nil {
		return nil, nil, err
	}
	doc, d := Parse(displayPath(dir, rel), rel, data)
	l.Add(d...)
	if doc != nil {
		l.Add(checkToolFileName(doc)...)
	}
	return doc, l, nil
}

// checkToolFileName reports a tool whose name differs from its file name.
func checkToolFileName(doc *Doc) diag.List {
	var l diag.List
	want := strings.TrimSuffix(path.Base(doc.Rel), toolExt)
	obj, _ := doc.Value.(map[string]any)
	if name, ok := obj["name"].(string); ok && name != want {
		l.Errorf(doc.Pos("/name"), "tool-file-name", "tool is named %q but its file is %s; the file name must be the tool name", name, path.Base(doc.Rel))
	}
	return l
}

// readFile reads name from fsys, at most MaxFileBytes+1 bytes so that an
// oversized file is detected without reading it whole.
func readFile(fsys fs.FS, name string) (data []byte, present bool, err error) {
	f, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err = readAll(f)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", name, err)
	}
	return data, true, nil
}

// readAll reads f to its end, at most MaxFileBytes+1 bytes, into a buffer
// sized from f's Stat when f is a regular file: one read fills it and a
// second finds the end, where io.ReadAll reads in growing steps.
func readAll(f fs.File) ([]byte, error) {
	size := 512
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = int(min(info.Size(), MaxFileBytes)) + 1
	}
	buf := make([]byte, 0, size)
	r := io.LimitReader(f, MaxFileBytes+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func displayPath(dir, rel string) string {
	if dir == "" || dir == "." {
		return rel
	}
	return path.Join(filepathToSlash(dir), rel)
}

func filepathToSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }
