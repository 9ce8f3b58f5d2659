package ir

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNamesAcrossTools proves a type name asked for by two tools goes to
// the tool first by name, the other getting the next suffix, and that the
// types within the renamed one take their names from it: the definition
// "b_input_c" of the tool "a" and the member "c" of the tool "a_b" both
// ask for ABInputC.
func TestNamesAcrossTools(t *testing.T) {
	const inner = `{"type":"object","properties":{"d":{"type":"object","properties":{"e":{"type":"string","enum":["x"]}}}}}`
	tool := func(name, schema string) *Tool {
		var in any
		if err := json.NewDecoder(strings.NewReader(schema)).Decode(&in); err != nil {
			t.Fatal(err)
		}
		return &Tool{Name: name, Input: &Schema{Value: in, Graph: BuildGraph(in, name, "input")},
			Output: &Schema{Value: true, Graph: BuildGraph(true, name, "output")}}
	}
	p := &Provider{Targets: Targets{KotlinClass: "P", KotlinService: "PDiscoveryService"}, Tools: []*Tool{
		tool("a", `{"type":"object","properties":{"r":{"$ref":"#/$defs/b_input_c"}},"$defs":{"b_input_c":`+inner+`}}`),
		tool("a_b", `{"type":"object","properties":{"c":`+inner+`}}`),
	}}
	nameProvider(p)
	var got []string
	for _, n := range p.Decls {
		got = append(got, n.GoName+"/"+n.KotlinName)
		for _, v := range n.Values {
			got = append(got, v.GoName)
		}
	}
	want := "AInput/AInput ABInputC/ABInputC ABInputCD/ABInputCD ABInputCDE/ABInputCDE ABInputCDEX AOutput/AOutput " +
		"ABInput/ABInput ABInputC2/ABInputC2 ABInputC2D/ABInputC2D ABInputC2DE/ABInputC2DE ABInputC2DEX ABOutput/ABOutput"
	if strings.Join(got, " ") != want {
		t.Errorf("declarations\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}
