package importer

import (
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/source"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Options are the choices of one import.
type Options struct {
	// Dir is the spec directory the files are for, as the user named it:
	// the files' display paths start with it, and its slug is the default
	// product.
	Dir string
	// Source is the input's display name ("-" for standard input).
	Source string
	// Product is the CLI product and the prefix of the scope names;
	// default the slug of Dir.
	Product string
	// Package is the Android package and provider id; empty writes a
	// PLACEHOLDER (com.example.<product>).
	Package string
	// Name is the Provider's display name; empty writes a PLACEHOLDER.
	Name string
}

// product is the CLI product of o.
func (o Options) product() string {
	if o.Product != "" {
		return o.Product
	}
	return spec.Slug(o.Dir)
}

// Result is what an import produced.
type Result struct {
	// Files are provider.yaml and tools/<name>.yaml, with paths relative to
	// Options.Dir. There are none when Diags holds an error.
	Files []emit.File
	// Diags are the import's findings: errors at their place in the input
	// (nothing was imported), warnings at the place in the written files
	// (placeholders, guesses, open outputs) or in the input (renamed
	// tools, converted schema forms).
	Diags diag.List
	// Tools is the number of tools imported.
	Tools int
}

// Rules of the import's diagnostics.
const (
	RulePlaceholder = "import-placeholder"
	RuleGuess       = "import-guess"
	RuleRenamed     = "import-renamed"
	RuleCollision   = "import-name-collision"
	RuleOpenOutput  = "open-output"
)

// displayPath is the display path of rel inside the spec directory.
func (o Options) displayPath(rel string) string {
	if o.Dir == "" {
		return rel
	}
	return strings.TrimSuffix(o.Dir, "/") + "/" + rel
}

// commentDiags turns a file's GUESS and PLACEHOLDER comments into
// warnings at the values they sit above in doc, the rendered file parsed
// again. rules names another rule than import-guess for the guesses at
// some pointers.
func commentDiags(doc *spec.Doc, c comments, rules map[string]string) diag.List {
	var l diag.List
	for _, ptr := range sortedPointers(c) {
		pos := nearestPos(doc, ptr)
		for _, line := range c[ptr] {
			switch {
			case strings.HasPrefix(line, markPlaceholder+": "):
				l.Warnf(pos, RulePlaceholder, "%s", strings.TrimPrefix(line, markPlaceholder+": "))
			case strings.HasPrefix(line, markGuess+": "):
				rule := RuleGuess
				if r, ok := rules[ptr]; ok {
					rule = r
				}
				l.Warnf(pos, rule, "%s", strings.TrimPrefix(line, markGuess+": "))
			}
		}
	}
	return l
}

// nearestPos is the position of ptr in doc, or of its nearest ancestor
// that doc has.
func nearestPos(doc *spec.Doc, ptr string) source.Pos {
	for ptr != "" && !doc.Has(ptr) {
		ptr = spec.Parent(ptr)
	}
	return doc.Pos(ptr)
}

func sortedPointers(c comments) []string {
	ptrs := make([]string, 0, len(c))
	for p := range c {
		ptrs = append(ptrs, p)
	}
	sortStrings(ptrs)
	return ptrs
}
