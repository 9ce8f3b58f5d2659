package golang

import (
	"strings"
	"unicode"
)

// validTag reports whether encoding/json accepts name as a struct tag
// name; other names (empty, "-", quotes, commas, backslashes …) are
// encoded by generated methods instead.
func validTag(name string) bool {
	if name == "" || name == "-" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
