package jsonval

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// MaxDigits bounds the decimal digits of an integer decoded from JSON, so
// that an exponent such as 1e999999999 cannot make a decoder allocate
// without bound.
const MaxDigits = 4096

// ErrNotInteger reports a JSON number with a non-zero fractional part.
var ErrNotInteger = errors.New("jsonval: number is not an integer")

// Int is an integer of any size, kept exactly. The zero value is 0. It
// decodes from every integral JSON number and encodes as the shortest
// integer literal. Ints are comparable: equal values are ==.
type Int struct {
	// d is the canonical decimal form ("-12", "0" is ""), so the zero
	// value is 0 and == compares values.
	d string
}

// IntOf returns v as an Int.
func IntOf(v int64) Int { return canonical(strconv.FormatInt(v, 10)) }

// BigOf returns v as an Int; nil is 0.
func BigOf(v *big.Int) Int {
	if v == nil {
		return Int{}
	}
	return canonical(v.String())
}

// ParseInt parses an integral JSON number literal ("12", "-1.0", "1e2").
func ParseInt(lit string) (Int, error) {
	d, err := integral(lit)
	if err != nil {
		return Int{}, err
	}
	return canonical(d), nil
}

// canonical wraps a canonical decimal integer.
func canonical(d string) Int {
	if d == "0" {
		return Int{}
	}
	return Int{d: d}
}

// String returns the decimal form.
func (i Int) String() string {
	if i.d == "" {
		return "0"
	}
	return i.d
}

// Int64 returns the value and whether it fits int64.
func (i Int) Int64() (int64, bool) {
	v, err := strconv.ParseInt(i.String(), 10, 64)
	return v, err == nil
}

// Big returns the value as a new big.Int.
func (i Int) Big() *big.Int {
	v, _ := new(big.Int).SetString(i.String(), 10)
	return v
}

// MarshalJSON encodes the integer literal.
func (i Int) MarshalJSON() ([]byte, error) { return []byte(i.String()), nil }

// UnmarshalJSON decodes any integral JSON number; null leaves i unchanged,
// as encoding/json does for its own types.
func (i *Int) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	v, err := ParseInt(string(data))
	if err != nil {
		return err
	}
	*i = v
	return nil
}

// Int64 is an int64 that decodes from every integral JSON number in its
// range ("5.0", "5e0"), for integers whose schema bounds fit int64.
type Int64 int64

// UnmarshalJSON decodes an integral JSON number within int64; null
// leaves v unchanged.
func (v *Int64) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	i, err := ParseInt(string(data))
	if err != nil {
		return err
	}
	n, ok := i.Int64()
	if !ok {
		return fmt.Errorf("jsonval: %s is outside int64", i)
	}
	*v = Int64(n)
	return nil
}

// integral returns the canonical decimal digits of an integral JSON
// number literal, or an error for a literal that is not a JSON number,
// has a non-zero fraction, or would exceed MaxDigits.
func integral(lit string) (string, error) {
	neg, intPart, frac, exp, ok := splitNumber(lit)
	if !ok {
		return "", fmt.Errorf("jsonval: %q is not a JSON number", truncate(lit))
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0", nil
	}
	e, ok := exponent(exp)
	if !ok {
		if strings.HasPrefix(exp, "-") {
			return "", ErrNotInteger
		}
		return "", fmt.Errorf("jsonval: %q has more than %d digits", truncate(lit), MaxDigits)
	}
	shift := e - len(frac)
	if shift < 0 {
		keep := len(digits) + shift
		if keep <= 0 || strings.Trim(digits[keep:], "0") != "" {
			return "", ErrNotInteger
		}
		digits = digits[:keep]
	} else {
		if len(digits)+shift > MaxDigits {
			return "", fmt.Errorf("jsonval: %q has more than %d digits", truncate(lit), MaxDigits)
		}
		digits += strings.Repeat("0", shift)
	}
	if neg {
		digits = "-" + digits
	}
	return digits, nil
}

// splitNumber splits a JSON number (RFC 8259 §6) into its sign, integer
// digits, fraction digits and exponent text ("", "+5", "-3").
func splitNumber(s string) (neg bool, intPart, frac, exp string, ok bool) {
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	n := digitRun(s)
	if n == 0 || (s[0] == '0' && n > 1) {
		return false, "", "", "", false
	}
	intPart, s = s[:n], s[n:]
	if strings.HasPrefix(s, ".") {
		m := digitRun(s[1:])
		if m == 0 {
			return false, "", "", "", false
		}
		frac, s = s[1:1+m], s[1+m:]
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		rest := s[1:]
		sign := ""
		if rest != "" && (rest[0] == '+' || rest[0] == '-') {
			sign, rest = rest[:1], rest[1:]
		}
		m := digitRun(rest)
		if m == 0 {
			return false, "", "", "", false
		}
		exp, s = sign+rest[:m], rest[m:]
	}
	return neg, intPart, frac, exp, s == ""
}

// digitRun is the length of the leading ASCII digits of s.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// exponent parses exponent text, failing when its magnitude exceeds what
// MaxDigits allows.
func exponent(exp string) (int, bool) {
	if exp == "" {
		return 0, true
	}
	digits := strings.TrimLeft(strings.TrimLeft(exp, "+-"), "0")
	if len(digits) > 7 {
		return 0, false
	}
	e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
	if err != nil || e > 1<<22 || e < -(1<<22) {
		return 0, false
	}
	return e, true
}

// truncate shortens a literal for an error message.
func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
