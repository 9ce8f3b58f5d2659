// Package nearmatch measures how near a mistyped name is to a known one,
// for the "did you mean" of cetpgen's diagnostics (gen/validate) and of
// the schema command's unknown paths (runtime/catalog).
package nearmatch

// Distance is the optimal string alignment distance of a and b, in
// runes: an insertion, a deletion, a substitution and a transposition of
// neighbours ("lgo" for "log") each count one.
func Distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2, prev, cur := make([]int, len(y)+1), make([]int, len(y)+1), make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
