package jsonval

import (
	"encoding/json"
	"testing"
)

// point is what generated code declares for an object with declared
// members "x" and "a,b" (a name a tag cannot carry) and extra members.
type point struct {
	X     *int64                     `json:"x,omitzero"`
	AB    string                     `json:"-"`
	Extra map[string]json.RawMessage `json:"-"`
}

var pointDeclared = []string{"x", "a,b"}

func (p point) MarshalJSON() ([]byte, error) {
	type plain point
	return MarshalObject(plain(p), pointDeclared, []Member{{"a,b", p.AB, true}}, p.Extra)
}

func (p *point) UnmarshalJSON(data []byte) error {
	type plain point
	return UnmarshalObject(data, (*plain)(p), pointDeclared, []Member{{Name: "a,b", Value: &p.AB}}, &p.Extra)
}

// TestObjectRoundTrip proves undeclared members survive decode and
// encode, a member differing from a declared one only in case is an
// extra member rather than filling the field, and names a tag cannot
// carry are decoded and encoded by name.
func TestObjectRoundTrip(t *testing.T) {
	in := `{"X":"upper","a,b":"comma","x":1,"z":[1,{"k":null}]}`
	var p point
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if p.X == nil || *p.X != 1 || p.AB != "comma" || string(p.Extra["X"]) != `"upper"` || len(p.Extra) != 2 {
		t.Fatalf("decoded %+v", p)
	}
	out, err := json.Marshal(p)
	if err != nil || string(out) != `{"x":1,"a,b":"comma","X":"upper","z":[1,{"k":null}]}` {
		t.Fatalf("encoded %s, %v", out, err)
	}
	if out, err := json.Marshal(point{}); err != nil || string(out) != `{}` {
		t.Fatalf("empty: %s, %v", out, err)
	}
	if _, err := json.Marshal(point{Extra: map[string]json.RawMessage{"x": json.RawMessage("2")}}); err == nil {
		t.Fatal("an extra member named like a declared one encoded")
	}
}

// TestObjectTypedExtra proves typed extra members decode into their type
// and a value of the wrong type is an error.
func TestObjectTypedExtra(t *testing.T) {
	type plain struct {
		N string `json:"n"`
	}
	var v plain
	var extra map[string]Int
	if err := UnmarshalObject([]byte(`{"n":"a","big":1e30}`), &v, []string{"n"}, nil, &extra); err != nil || extra["big"].String() != "1000000000000000000000000000000" {
		t.Fatalf("%+v %v %v", v, extra, err)
	}
	if err := UnmarshalObject([]byte(`{"n":"a","bad":"s"}`), &v, []string{"n"}, nil, &extra); err == nil {
		t.Fatal("a string decoded as Int")
	}
}
