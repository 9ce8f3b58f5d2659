package kotlin

import "strings"

// chunkBytes bounds the modified UTF-8 length of one string literal: a
// class file holds a string constant of at most 65535 bytes, so a long
// text is passed as several literals and joined at run time.
const chunkBytes = 32 << 10

// stringChunks returns s as Kotlin string literals separated by commas,
// each within chunkBytes in the class file's encoding.
func stringChunks(s string) string {
	if 2*len(s) <= chunkBytes {
		// No character takes more than twice its UTF-8 length in the
		// class file (NUL two bytes for one, a surrogate pair six for four).
		return kotlinString(s)
	}
	var parts []string
	var b strings.Builder
	size := 0
	for _, r := range s {
		n := classFileBytes(r)
		if size+n > chunkBytes {
			parts = append(parts, kotlinString(b.String()))
			b.Reset()
			size = 0
		}
		b.WriteRune(r)
		size += n
	}
	parts = append(parts, kotlinString(b.String()))
	return strings.Join(parts, ", ")
}

// classFileBytes is the length of r in the class file's modified UTF-8
// (NUL takes two bytes, a character beyond the BMP a surrogate pair of
// three bytes each).
func classFileBytes(r rune) int {
	switch {
	case r == 0:
		return 2
	case r < 0x80:
		return 1
	case r < 0x800:
		return 2
	case r < 0x10000:
		return 3
	}
	return 6
}
