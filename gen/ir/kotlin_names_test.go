package ir

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestKotlinNameForms proves the Kotlin spellings of wire names: no Go
// initialisms, any letter may lead, enum constants in UPPER_SNAKE.
func TestKotlinNameForms(t *testing.T) {
	for in, want := range map[string][3]string{
		"alert_id": {"AlertId", "alertId", "ALERT_ID"}, "价格": {"价格", "价格", "价格"},
		"2fa": {"X2fa", "x2fa", "V2FA"}, "": {"X", "x", "V_"}, "a-b c": {"ABC", "aBC", "A_B_C"},
	} {
		got := [3]string{kotlinExport(in), kotlinMember(in), kotlinConst(in)}
		if got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// TestKotlinNamesUnique proves the Kotlin names the IR allocates within
// one type never collide: enum constants, union variants, properties.
func TestKotlinNamesUnique(t *testing.T) {
	var doc any
	schema := `{"type":"object","properties":{
		"e":{"type":"string","enum":["a-b","a_b","A B",""]},
		"toJson":{"type":"string"},"to_json":{"type":"string"},
		"u":{"type":["string","integer","object","array"]},
		"t":{"oneOf":[
			{"type":"object","properties":{"k":{"const":"string"}},"required":["k"]},
			{"type":"object","properties":{"k":{"const":"String"}},"required":["k"]},
			{"type":"object","properties":{"k":{"const":"companion"}},"required":["k"]}]}}}`
	d := json.NewDecoder(strings.NewReader(schema))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	p := &Provider{Targets: Targets{KotlinClass: "P", KotlinService: "PDiscoveryService"}}
	tool := &Tool{Name: "x", Input: &Schema{Value: doc, Graph: BuildGraph(doc, "x", "input")},
		Output: &Schema{Value: true, Graph: BuildGraph(true, "x", "output")}}
	p.Tools = []*Tool{tool}
	nameProvider(p)
	root := tool.Input.Graph.Root
	seen := map[string]bool{}
	for _, pr := range root.Props {
		if seen[pr.KotlinName] || pr.KotlinName == "toJson" {
			t.Errorf("property %q: Kotlin name %q", pr.Name, pr.KotlinName)
		}
		seen[pr.KotlinName] = true
		n := pr.Node.Resolved()
		names := map[string]bool{}
		for _, v := range n.Values {
			if names[v.KotlinName] {
				t.Errorf("enum value %q: Kotlin name %q taken", v.Value, v.KotlinName)
			}
			names[v.KotlinName] = true
		}
		for _, v := range n.Variants {
			if names[v.KotlinName] || v.KotlinName == "String" || v.KotlinName == "Companion" {
				t.Errorf("variant %q of %s: Kotlin name %q", v.Value, pr.Name, v.KotlinName)
			}
			names[v.KotlinName] = true
		}
	}
	if p.Kotlin.Json != "PJson" || tool.Names.KotlinObject != "X" || root.KotlinName != "XInput" {
		t.Errorf("names %+v %+v %q", p.Kotlin, tool.Names, root.KotlinName)
	}
}
