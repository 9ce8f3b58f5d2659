package jsonval

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// MaxExponent bounds the decimal exponent of a Number, the same bound
// java.math.BigDecimal puts on its scale, so that the Go and Kotlin code
// generated from one schema accept the same numbers.
const MaxExponent = math.MaxInt32

// ErrNotFinite reports a float64 that is NaN or infinite, which no JSON
// number can hold.
var ErrNotFinite = errors.New("jsonval: NaN and infinities are not JSON numbers")

// Number is a JSON number of any size and precision, kept exactly: 1e400
// and 0.10000000000000000001 survive a decode and encode unchanged. The
// zero value is 0. It encodes in one canonical form per value (1.0, 1E0
// and 10e-1 all encode as 1), so Numbers are comparable: equal values
// are ==.
type Number struct {
	// neg is the sign of a non-zero value.
	neg bool
	// digits are the significant decimal digits, without leading or
	// trailing zeros; "" is 0.
	digits string
	// point places the decimal point: the value is 0.digits × 10^point.
	point int64
}

// NumberFromInt returns v as a Number.
func NumberFromInt(v int64) Number {
	n, _ := ParseNumber(strconv.FormatInt(v, 10))
	return n
}

// NumberFromFloat returns the shortest decimal that reads back as f (0.1
// for the float64 nearest 0.1), or ErrNotFinite for NaN and infinities.
func NumberFromFloat(f float64) (Number, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Number{}, ErrNotFinite
	}
	return ParseNumber(strconv.FormatFloat(f, 'g', -1, 64))
}

// Number returns i as a Number.
func (i Int) Number() Number {
	n, _ := ParseNumber(i.String())
	return n
}

// ParseNumber parses a JSON number literal (RFC 8259 §6), refusing any
// other text and exponents beyond ±MaxExponent.
func ParseNumber(lit string) (Number, error) {
	neg, intPart, frac, exp, ok := splitNumber(lit)
	if !ok {
		return Number{}, fmt.Errorf("jsonval: %q is not a JSON number", truncate(lit))
	}
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	digits := strings.TrimRight(all[lead:], "0")
	if digits == "" {
		return Number{}, nil
	}
	e, ok := numberExponent(exp)
	if !ok {
		return Number{}, fmt.Errorf("jsonval: %q has an exponent beyond ±%d", truncate(lit), MaxExponent)
	}
	point := e + int64(len(intPart)) - int64(lead)
	if point > MaxExponent || point < -MaxExponent {
		return Number{}, fmt.Errorf("jsonval: %q has an exponent beyond ±%d", truncate(lit), MaxExponent)
	}
	return Number{neg: neg, digits: digits, point: point}, nil
}

// numberExponent parses exponent text, failing beyond ±MaxExponent.
func numberExponent(exp string) (int64, bool) {
	if exp == "" {
		return 0, true
	}
	digits := strings.TrimLeft(strings.TrimLeft(exp, "+-"), "0")
	if len(digits) > 10 {
		return 0, false
	}
	e, err := strconv.ParseInt(strings.TrimPrefix(exp, "+"), 10, 64)
	if err != nil || e > MaxExponent || e < -MaxExponent {
		return 0, false
	}
	return e, true
}

// String returns the canonical literal: plain decimal notation while the
// decimal point lies within 21 digits of the significant ones (100,
// 0.000001, 123.45), else one digit before the point and an exponent
// (1e21, 1.5e-7, 1e400), as JavaScript prints numbers.
func (n Number) String() string {
	if n.digits == "" {
		return "0"
	}
	var b strings.Builder
	if n.neg {
		b.WriteByte('-')
	}
	k, p := int64(len(n.digits)), n.point
	switch {
	case k <= p && p <= 21:
		b.WriteString(n.digits)
		b.WriteString(strings.Repeat("0", int(p-k)))
	case 0 < p && p <= 21:
		b.WriteString(n.digits[:p] + "." + n.digits[p:])
	case -6 < p && p <= 0:
		b.WriteString("0." + strings.Repeat("0", int(-p)) + n.digits)
	default:
		b.WriteString(n.digits[:1])
		if k > 1 {
			b.WriteString("." + n.digits[1:])
		}
		b.WriteString("e" + strconv.FormatInt(p-1, 10))
	}
	return b.String()
}

// IsZero reports whether the number is 0.
func (n Number) IsZero() bool { return n.digits == "" }

// Sign returns -1, 0 or +1.
func (n Number) Sign() int {
	switch {
	case n.digits == "":
		return 0
	case n.neg:
		return -1
	}
	return 1
}

// Cmp compares n and o: -1 if n < o, 0 if equal, +1 if n > o.
func (n Number) Cmp(o Number) int {
	if s, t := n.Sign(), o.Sign(); s != t || s == 0 {
		return cmpInt(int64(s), int64(t))
	}
	c := cmpInt(n.point, o.point)
	if c == 0 {
		c = strings.Compare(n.digits, o.digits)
	}
	if n.neg {
		return -c
	}
	return c
}

// cmpInt compares two integers.
func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Float64 returns the float64 nearest the number (±Inf beyond the
// float64 range, ±0 below it) and whether that float64 holds the number
// as written: true when encoding the float64 gives back this Number
// (0.1, 1e300), false when digits or range are lost
// (0.10000000000000000001, 1e400).
func (n Number) Float64() (float64, bool) {
	if n.digits == "" {
		return 0, true
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil {
		return f, false
	}
	back, err := NumberFromFloat(f)
	return f, err == nil && back == n
}

// Int returns the number as an Int and whether it is an integer that
// fits MaxDigits decimal digits.
func (n Number) Int() (Int, bool) {
	if n.digits == "" {
		return Int{}, true
	}
	if n.point < int64(len(n.digits)) || n.point > MaxDigits {
		return Int{}, false
	}
	return BigOf(n.Rat().Num()), true
}

// Rat returns the exact value as a new big.Rat, or nil when its
// numerator or denominator would need more than MaxDigits decimal digits
// (1e400 and 1e-400 are fine; 1e1000000000 is nil rather than an
// allocation of gigabytes).
func (n Number) Rat() *big.Rat {
	if n.digits == "" {
		return new(big.Rat)
	}
	k := int64(len(n.digits))
	if n.point > MaxDigits || k-n.point > MaxDigits {
		return nil
	}
	mant, _ := new(big.Int).SetString(n.digits, 10)
	if n.neg {
		mant.Neg(mant)
	}
	shift := n.point - k
	ten := big.NewInt(10)
	if shift >= 0 {
		return new(big.Rat).SetInt(mant.Mul(mant, new(big.Int).Exp(ten, big.NewInt(shift), nil)))
	}
	return new(big.Rat).SetFrac(mant, new(big.Int).Exp(ten, big.NewInt(-shift), nil))
}

// MarshalJSON encodes the canonical literal.
func (n Number) MarshalJSON() ([]byte, error) { return []byte(n.String()), nil }

// UnmarshalJSON decodes any JSON number; null leaves n unchanged, as
// encoding/json does for its own types.
func (n *Number) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	v, err := ParseNumber(string(data))
	if err != nil {
		return err
	}
	*n = v
	return nil
}

// MarshalText encodes the canonical literal, so a Number can be a map
// key and be read from text such as a command-line flag.
func (n Number) MarshalText() ([]byte, error) { return []byte(n.String()), nil }

// UnmarshalText parses a JSON number literal.
func (n *Number) UnmarshalText(text []byte) error {
	v, err := ParseNumber(string(text))
	if err != nil {
		return err
	}
	*n = v
	return nil
}
