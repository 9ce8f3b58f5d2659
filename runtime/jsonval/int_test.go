package jsonval

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
)

// TestParseInt proves every integral JSON number form decodes to its
// exact value and every other literal is refused.
func TestParseInt(t *testing.T) {
	good := map[string]string{
		"0": "0", "-0": "0", "0.0": "0", "-0e5": "0", "5": "5", "5.0": "5", "5.000": "5", "-5.0": "-5",
		"1e2": "100", "1E+2": "100", "1.5e1": "15", "150e-1": "15", "12.340e2": "1234",
		"9007199254740992.0": "9007199254740992", "9007199254740993": "9007199254740993",
		"123456789012345678901234567890": "123456789012345678901234567890",
		"-9223372036854775809":           "-9223372036854775809", "0e-99999999999": "0", "1e3000": "1" + strings.Repeat("0", 3000),
	}
	for lit, want := range good {
		got, err := ParseInt(lit)
		if err != nil || got.String() != want {
			t.Errorf("ParseInt(%q) = %s, %v; want %s", lit, got, err, want)
		}
	}
	for _, lit := range []string{"1.5", "1e-1", "15e-2", "0.11e1", "1e-99999999999"} {
		if _, err := ParseInt(lit); !errors.Is(err, ErrNotInteger) {
			t.Errorf("ParseInt(%q): %v, want ErrNotInteger", lit, err)
		}
	}
	for _, lit := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1_000", " 1", "NaN", "Infinity", `"1"`, "1e99999999", "1e5000"} {
		if _, err := ParseInt(lit); err == nil || errors.Is(err, ErrNotInteger) {
			t.Errorf("ParseInt(%q): %v, want a syntax or size error", lit, err)
		}
	}
}

// TestIntJSON proves Int and Int64 decode integral forms in struct fields,
// encode the shortest literal, and that Int64 refuses values outside
// int64 while Int keeps them.
func TestIntJSON(t *testing.T) {
	var v struct {
		A Int   `json:"a"`
		B Int64 `json:"b"`
		C *Int  `json:"c"`
	}
	if err := json.Unmarshal([]byte(`{"a":1e20,"b":5.0,"c":-7.00}`), &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil || string(out) != `{"a":100000000000000000000,"b":5,"c":-7}` {
		t.Fatalf("got %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"b":9223372036854775808}`), &v); err == nil {
		t.Error("Int64 took 2^63")
	}
	if err := json.Unmarshal([]byte(`{"a":1.5}`), &v); err == nil {
		t.Error("Int took 1.5")
	}
	big63, _ := new(big.Int).SetString("9223372036854775808", 10)
	if n := BigOf(big63); n.Big().Cmp(big63) != 0 {
		t.Errorf("BigOf round trip: %s", n)
	}
	if _, ok := BigOf(big63).Int64(); ok {
		t.Error("2^63 fits int64")
	}
	if n, ok := IntOf(-42).Int64(); !ok || n != -42 || IntOf(0) != (Int{}) {
		t.Errorf("IntOf: %d %v", n, ok)
	}
}

// FuzzParseInt checks ParseInt against math/big on arbitrary text: it
// never panics, whatever it accepts is a JSON number whose exact value is
// the integer returned, and it accepts every integral JSON number of
// modest size.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{"0", "-0.0", "1e2", "12.5e1", "1.25", "9007199254740993.000", "1e-3", "01", "1e999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseInt(s)
		valid := json.Valid([]byte(s)) && len(s) > 0 && strings.TrimSpace(s) == s && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
		if err == nil && !valid {
			t.Fatalf("ParseInt accepted %q", s)
		}
		if !valid || len(s) > 64 || strings.ContainsAny(s, "eE") && !smallExponent(s) {
			return
		}
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("big.Rat refuses JSON number %q", s)
		}
		if r.IsInt() != (err == nil) {
			t.Fatalf("ParseInt(%q): %v, but integral is %v", s, err, r.IsInt())
		}
		if err == nil && got.Big().Cmp(r.Num()) != 0 {
			t.Fatalf("ParseInt(%q) = %s, want %s", s, got, r.Num())
		}
	})
}

// smallExponent reports whether the exponent of a number literal is
// within ±999, which math/big evaluates quickly.
func smallExponent(s string) bool {
	i := strings.IndexAny(s, "eE")
	e := strings.TrimLeft(s[i+1:], "+-")
	return len(e) <= 3
}
