package goserver

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// PlaceholderModule stands for the user's module path when no go.mod lies
// above the output root.
const PlaceholderModule = "example.com/yourmodule"

// importPath returns the import path of the directory rel (slash
// separated) under the output root: the module path of the nearest go.mod
// above root joined with root's place in that module. ok is false, and
// the path starts with PlaceholderModule, when there is no such go.mod.
func importPath(root, rel string) (string, bool) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return path.Join(PlaceholderModule, rel), false
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			mod := modulePath(data)
			inside, err := filepath.Rel(dir, abs)
			if mod == "" || err != nil {
				break
			}
			return path.Join(mod, filepath.ToSlash(inside), rel), true
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return path.Join(PlaceholderModule, rel), false
}

// modulePath returns the path of the module directive of a go.mod file,
// or "" when it has none.
func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"') {
			continue
		}
		rest = strings.TrimSpace(rest)
		if unq, err := strconv.Unquote(rest); err == nil {
			return unq
		}
		return rest
	}
	return ""
}
