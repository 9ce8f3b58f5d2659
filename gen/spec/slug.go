package spec

import (
	"path"
	"strings"
	"unicode"
)

// Slug reduces a spec directory's base name to lowercase letters, digits
// and hyphens ("My Specs_2" -> "my-specs-2"). It names the Provider's
// output directories and is the default CLI product.
func Slug(dir string) string {
	base := path.Base(strings.ReplaceAll(dir, "\\", "/"))
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	s := strings.TrimSuffix(b.String(), "-")
	if s == "" {
		return "provider"
	}
	return s
}
