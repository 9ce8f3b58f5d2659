package nearmatch_test

import (
	"testing"

	"github.com/cetpgen/cetpgen/runtime/nearmatch"
)

// TestDistance checks each kind of edit, runes counted as one each.
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"log", "log", 0}, {"lgo", "log", 1}, {"lo", "log", 1}, {"logs", "log", 1},
		{"lag", "log", 1}, {"", "abc", 3}, {"abc", "", 3}, {"名前", "名字", 1}, {"ab", "ba", 1},
		{"ca", "abc", 3}, {"kitten", "sitting", 3},
	} {
		if got := nearmatch.Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := nearmatch.Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}
