package importer

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// toolNameRE is a legal CETP tool name (CETP v2 §3.1).
var toolNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// maxToolName is the longest legal tool name.
const maxToolName = 64

// legalName turns an upstream tool name into the CETP form: a camelCase
// hump and every character but an ASCII letter or digit become "_", runs
// of "_" collapse, letters are lowercased, a name that does not start
// with a letter gets "tool_" in front, and the result is cut to 64
// characters. "getUser" -> "get_user", "repo.list-issues" ->
// "repo_list_issues", "2fa" -> "tool_2fa".
func legalName(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r < unicode.MaxASCII && unicode.IsUpper(r):
			if i > 0 && hump(rs, i) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		case r < unicode.MaxASCII && (unicode.IsLower(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(collapse(b.String()), "_")
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		s = strings.TrimSuffix("tool_"+s, "_")
	}
	return strings.TrimRight(cut(s, maxToolName), "_")
}

// hump reports whether the upper-case rs[i] starts a new word: after a
// lower-case letter or digit, or as the last capital of an acronym
// followed by a lower-case letter ("HTTPServer" -> "http_server").
func hump(rs []rune, i int) bool {
	prev := rs[i-1]
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	return unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
}

func collapse(s string) string {
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	return s
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// naming is the outcome of naming one upstream tool.
type naming struct {
	upstream, name string
	renamed        bool   // name differs from upstream
	collision      string // the other upstream name that wanted the same name, if any
}

// assignNames gives every upstream name a unique legal CETP name. Names
// are settled in byte order of the upstream names, so the result does not
// depend on the order of the input: a name that is already legal keeps
// itself; then each other name gets its reduced form unless a name
// settled earlier has it; the names left over get the smallest free
// suffix "_2", "_3", … (the base cut to leave room). The caller has
// rejected duplicate upstream names.
func assignNames(upstream []string) map[string]naming {
	sorted := append([]string(nil), upstream...)
	sort.Strings(sorted)
	taken := map[string]string{} // CETP name -> upstream name
	out := map[string]naming{}
	for _, u := range sorted {
		if toolNameRE.MatchString(u) {
			taken[u] = u
			out[u] = naming{upstream: u, name: u}
		}
	}
	var losers []string
	for _, u := range sorted {
		if _, done := out[u]; done {
			continue
		}
		base := legalName(u)
		if _, clash := taken[base]; clash {
			losers = append(losers, u)
			continue
		}
		taken[base] = u
		out[u] = naming{upstream: u, name: base, renamed: true}
	}
	for _, u := range losers {
		base := legalName(u)
		n := naming{upstream: u, name: freeName(base, taken), renamed: true, collision: taken[base]}
		taken[n.name] = u
		out[u] = n
	}
	return out
}

// freeName is base with the smallest suffix "_<k>" (k >= 2) not taken.
func freeName(base string, taken map[string]string) string {
	for k := 2; ; k++ {
		suffix := fmt.Sprintf("_%d", k)
		name := strings.TrimRight(cut(base, maxToolName-len(suffix)), "_") + suffix
		if _, used := taken[name]; !used {
			return name
		}
	}
}
