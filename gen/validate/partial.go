package validate

import (
	"strings"

	"github.com/cetpgen/cetpgen/gen/spec"
)

// failures are the JSON pointers at which a document broke its
// meta-schema. The checks that read other parts of the document still run,
// so one run reports an unknown key, a bad $ref and an undeclared scope
// together; a check whose input overlaps a failure is skipped, since it
// would only restate the failure or report nonsense about a value of the
// wrong shape.
type failures []string

// clean reports whether no failure lies at, above or below any of ptrs.
func (f failures) clean(ptrs ...string) bool {
	for _, bad := range f {
		for _, p := range ptrs {
			if overlaps(bad, p) {
				return false
			}
		}
	}
	return true
}

// overlaps reports whether one pointer is the other or an ancestor of it.
func overlaps(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || strings.HasPrefix(b, a+"/")
}

// pruned returns a copy of v without the members and items at the failed
// pointers, so that a document that broke its meta-schema still decodes
// into its wire struct (a value of the wrong type becomes absent;
// a list loses the item, so its indexes are only meaningful where clean).
func (f failures) pruned(v any) any {
	if len(f) == 0 {
		return v
	}
	return f.prune(v, "")
}

func (f failures) prune(v any, ptr string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, child := range x {
			p := ptr + "/" + spec.EscapeToken(k)
			if f.failedAt(p) {
				continue
			}
			out[k] = f.prune(child, p)
		}
		return out
	case []any:
		out := make([]any, 0, len(x))
		for i, child := range x {
			p := ptr + "/" + itoa(i)
			if !f.failedAt(p) {
				out = append(out, f.prune(child, p))
			}
		}
		return out
	}
	return v
}

func (f failures) failedAt(ptr string) bool {
	for _, bad := range f {
		if bad == ptr {
			return true
		}
	}
	return false
}

// scopeNamesClean reports whether the declared scope names are all known:
// provider.yaml's scopes list and each entry's name kept to the
// meta-schema (a bad title or access of one scope does not matter here).
func (f failures) scopeNamesClean() bool {
	for _, bad := range f {
		if !overlaps(bad, "/scopes") {
			continue
		}
		rest, ok := strings.CutPrefix(bad, "/scopes/")
		index, member, _ := strings.Cut(rest, "/")
		if _, isIndex := atoi(index); !ok || !isIndex || member == "" || strings.HasPrefix(member, "name") && (member == "name" || strings.HasPrefix(member, "name/")) {
			return false
		}
	}
	return true
}
