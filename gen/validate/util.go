package validate

import "strconv"

func itoa(i int) string { return strconv.Itoa(i) }

// atoi parses a JSON pointer array index (no sign, no leading zeros).
func atoi(s string) (int, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}
