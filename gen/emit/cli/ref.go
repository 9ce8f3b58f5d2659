package cli

import (
	"net/url"
	"strconv"
	"strings"
)

// maxRefDepth bounds a chain of $ref a flag's schema may follow.
const maxRefDepth = 16

// resolver follows local $ref JSON pointers ("#/$defs/sport") inside one
// schema document, so that a property or an array's items defined there
// still get a typed flag. Anchors and embedded resources are not followed:
// such a property takes JSON.
type resolver struct{ root any }

// view returns s with its $ref chain resolved: the target's keywords,
// overlaid by the referring schema's own. An unresolvable $ref stays, and
// makes the schema structural.
func (r resolver) view(s any) map[string]any {
	m := object(s)
	for range maxRefDepth {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		target := object(r.pointer(ref))
		if target == nil {
			return m
		}
		m = overlay(target, m)
	}
	return m
}

// overlay copies base, then the keys of top but $ref.
func overlay(base, top map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(top))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range top {
		if k != "$ref" {
			out[k] = v
		}
	}
	if ref, ok := base["$ref"]; ok {
		out["$ref"] = ref
	}
	return out
}

// pointer returns the value at the URI fragment ref ("#/a/b"), or nil.
func (r resolver) pointer(ref string) any {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || (frag != "" && !strings.HasPrefix(frag, "/")) {
		return nil
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil
	}
	cur := r.root
	for _, tok := range strings.Split(frag, "/")[1:] {
		cur = step(cur, strings.NewReplacer("~1", "/", "~0", "~").Replace(tok))
	}
	return cur
}

// step is one JSON pointer step into an object or an array.
func step(v any, tok string) any {
	switch x := v.(type) {
	case map[string]any:
		return x[tok]
	case []any:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(x) {
			return x[i]
		}
	}
	return nil
}
