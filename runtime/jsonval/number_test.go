package jsonval

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"
)

// TestParseNumber proves every JSON number form keeps its exact value in
// the canonical literal, and that other text is refused.
func TestParseNumber(t *testing.T) {
	good := map[string]string{
		"0": "0", "-0": "0", "-0.0e-7": "0", "1.0": "1", "1E2": "100", "1e+2": "100", "-1.50": "-1.5",
		"1e400": "1e400", "-1e-400": "-1e-400", "0.10000000000000000001": "0.10000000000000000001",
		"123.4500": "123.45", "0.000001": "0.000001", "0.0000001": "1e-7", "1e20": "100000000000000000000",
		"1e21": "1e21", "12.5e-8": "1.25e-7", "9007199254740993": "9007199254740993",
		"1e2147483646": "1e2147483646", "0.001e1000000000": "1e999999997",
	}
	for lit, want := range good {
		n, err := ParseNumber(lit)
		if err != nil || n.String() != want {
			t.Errorf("ParseNumber(%q) = %s, %v; want %s", lit, n, err, want)
		}
	}
	for _, lit := range []string{"", "-", "01", "1.", ".5", "1e", "+1", " 1", "NaN", "Infinity", `"1"`, "00e5", "1e99999999999", "10e2147483647", "1e-2147483648"} {
		if _, err := ParseNumber(lit); err == nil {
			t.Errorf("ParseNumber(%q) accepted", lit)
		}
	}
}

// TestNumberJSON proves 1e400 and 0.10000000000000000001, which float64
// loses, survive a struct decode and encode, and that null leaves a
// field unchanged.
func TestNumberJSON(t *testing.T) {
	var v struct {
		A Number  `json:"a"`
		B Number  `json:"b"`
		C *Number `json:"c"`
		D Number  `json:"d"`
	}
	v.D = NumberFromInt(7)
	in := `{"a":1e400,"b":0.10000000000000000001,"c":-0,"d":null}`
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil || string(out) != `{"a":1e400,"b":0.10000000000000000001,"c":0,"d":7}` {
		t.Fatalf("got %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"a":"1"}`), &v); err == nil {
		t.Error("Number took a string")
	}
}

// TestNumberEqual proves one value has one Number, whatever its literal.
func TestNumberEqual(t *testing.T) {
	a, _ := ParseNumber("1.0")
	b, _ := ParseNumber("10e-1")
	if a != b || a != NumberFromInt(1) || (Number{}) != mustNumber(t, "-0") {
		t.Errorf("1.0, 10e-1, 1 and -0, 0 differ: %#v %#v", a, b)
	}
	order := []string{"-1e400", "-2", "-1.5", "-1e-400", "0", "1e-7", "0.1", "0.10000000000000000001", "1", "1.5", "10", "1e400"}
	for i, x := range order {
		for j, y := range order {
			if got, want := mustNumber(t, x).Cmp(mustNumber(t, y)), cmpInt(int64(i), int64(j)); got != want {
				t.Errorf("Cmp(%s, %s) = %d, want %d", x, y, got, want)
			}
		}
	}
}

// TestNumberFloat64 proves Float64 says when the float64 loses the value.
func TestNumberFloat64(t *testing.T) {
	cases := []struct {
		lit   string
		f     float64
		exact bool
	}{
		{"0.1", 0.1, true}, {"19.99", 19.99, true}, {"1e300", 1e300, true}, {"-0", 0, true},
		{"0.10000000000000000001", 0.1, false}, {"9007199254740993", 9007199254740992, false},
		{"1e400", math.Inf(1), false}, {"-1e1000000000", math.Inf(-1), false}, {"1e-400", 0, false},
	}
	for _, c := range cases {
		f, exact := mustNumber(t, c.lit).Float64()
		if f != c.f || exact != c.exact {
			t.Errorf("%s.Float64() = %v, %v; want %v, %v", c.lit, f, exact, c.f, c.exact)
		}
	}
	if n, err := NumberFromFloat(19.99); err != nil || n.String() != "19.99" {
		t.Errorf("NumberFromFloat(19.99) = %s, %v", n, err)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1)} {
		if _, err := NumberFromFloat(f); err == nil {
			t.Errorf("NumberFromFloat(%v) accepted", f)
		}
	}
}

// TestNumberRat proves Rat is exact and bounded: an exponent of a billion
// gives nil at once instead of a number of a billion digits.
func TestNumberRat(t *testing.T) {
	for lit, want := range map[string]string{"0.10000000000000000001": "10000000000000000001/100000000000000000000", "-1.5e3": "-1500/1", "0": "0/1"} {
		if got := mustNumber(t, lit).Rat(); got == nil || got.String() != want {
			t.Errorf("%s.Rat() = %v, want %s", lit, got, want)
		}
	}
	if r := mustNumber(t, "1e400").Rat(); r == nil || r.Num().String() != "1"+strings.Repeat("0", 400) {
		t.Errorf("1e400.Rat() = %v", r)
	}
	for _, lit := range []string{"1e1000000000", "1e-1000000000", "1e5000"} {
		if r := mustNumber(t, lit).Rat(); r != nil {
			t.Errorf("%s.Rat() = a number of %d bits, want nil", lit, r.Num().BitLen())
		}
	}
	if i, ok := mustNumber(t, "1.5e1").Int(); !ok || i != IntOf(15) {
		t.Errorf("1.5e1.Int() = %s, %v", i, ok)
	}
	for _, lit := range []string{"1.5", "1e-3", "1e1000000000"} {
		if _, ok := mustNumber(t, lit).Int(); ok {
			t.Errorf("%s.Int() claims an integer", lit)
		}
	}
	if IntOf(-3).Number() != NumberFromInt(-3) {
		t.Error("Int.Number differs from NumberFromInt")
	}
}

// mustNumber parses a literal the test knows is valid.
func mustNumber(t *testing.T, lit string) Number {
	t.Helper()
	n, err := ParseNumber(lit)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// FuzzParseNumber checks the parser against encoding/json's grammar and
// big.Rat's arithmetic: it accepts exactly the JSON numbers, its literal
// reparses to itself, and the value is the literal's exact value.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "-0.0", "1e400", "0.10000000000000000001", "1E2", "1.", "01", "1e2147483648", "-12.5e-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNumber(s)
		valid := json.Valid([]byte(s)) && len(s) > 0 && strings.TrimSpace(s) == s && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
		if err == nil && !valid {
			t.Fatalf("ParseNumber accepted %q", s)
		}
		if err != nil {
			if valid && !strings.ContainsAny(s, "eE") {
				t.Fatalf("ParseNumber refused %q: %v", s, err)
			}
			return
		}
		back, err := ParseNumber(n.String())
		if err != nil || back != n {
			t.Fatalf("%q encodes as %s, which reads back as %#v, %v", s, n, back, err)
		}
		if len(s) > 64 || strings.ContainsAny(s, "eE") && !smallExponent(s) {
			return
		}
		want, ok := new(big.Rat).SetString(s)
		if got := n.Rat(); !ok || got == nil || got.Cmp(want) != 0 {
			t.Fatalf("ParseNumber(%q).Rat() = %v, want %v", s, got, want)
		}
	})
}

// TestNumberSQL proves a Number is written as its exact literal and read
// back from every form a database driver returns.
func TestNumberSQL(t *testing.T) {
	if v, err := mustNumber(t, "1e400").Value(); err != nil || v != "1e400" {
		t.Errorf("Value() = %v, %v", v, err)
	}
	for src, want := range map[any]string{"0.10000000000000000001": "0.10000000000000000001", 19.99: "19.99", int64(-7): "-7"} {
		var n Number
		if err := n.Scan(src); err != nil || n.String() != want {
			t.Errorf("Scan(%v) = %s, %v; want %s", src, n, err, want)
		}
	}
	var n Number
	if err := n.Scan([]byte("1.5e3")); err != nil || n.String() != "1500" {
		t.Errorf("Scan([]byte) = %s, %v", n, err)
	}
	for _, src := range []any{"x", true, nil} {
		if err := n.Scan(src); err == nil {
			t.Errorf("Scan(%v) accepted", src)
		}
	}
}
