package diff

import "testing"

// benchPairs are realistic tool-schema changes: an input gaining an
// optional parameter and a wider pattern, and an output whose nullable
// field became a nullable anyOf of an object.
var benchPairs = []struct {
	name     string
	output   bool
	old, new string
}{
	{"input", false,
		`{"type":"object","properties":{"q":{"type":"string","minLength":1},"repo":{"type":"string","pattern":"^[.\\-A-Za-z0-9]+/[.\\-A-Za-z0-9]+$"},"per_page":{"type":"integer","minimum":1,"maximum":100}},"required":["q"]}`,
		`{"type":"object","properties":{"q":{"type":"string","minLength":1},"repo":{"type":"string","pattern":"^[._\\-A-Za-z0-9]+/[._\\-A-Za-z0-9]+$"},"per_page":{"type":"integer","minimum":1,"maximum":100},"sort":{"type":"string","enum":["indexed","best-match"]}},"required":["q"],"additionalProperties":false}`},
	{"output", true,
		`{"type":"object","properties":{"issues":{"type":"array","items":{"$ref":"#/$defs/issue"}}},"required":["issues"],"$defs":{"issue":{"type":"object","properties":{"number":{"type":"integer","minimum":1},"title":{"type":"string"},"state":{"type":"string","enum":["open","closed"]},"assignee":{"type":["string","null"]}},"required":["number","title","state"]}}}`,
		`{"type":"object","properties":{"issues":{"type":"array","items":{"$ref":"#/$defs/issue"}}},"required":["issues"],"$defs":{"issue":{"type":"object","properties":{"number":{"type":"integer","minimum":1},"title":{"type":"string"},"state":{"oneOf":[{"const":"open"},{"const":"closed"}]},"assignee":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["number","title","state"]}}}`},
}

// BenchmarkCompare measures one schema comparison in each mode.
func BenchmarkCompare(b *testing.B) {
	for _, p := range benchPairs {
		old, new := decodeJSON(p.old), decodeJSON(p.new)
		compare := CompareInput
		if p.output {
			compare = CompareOutput
		}
		for _, mode := range Modes {
			b.Run(p.name+"/"+string(mode), func(b *testing.B) {
				for b.Loop() {
					compare(old, new, mode)
				}
			})
		}
	}
}

// BenchmarkPatternInclusion measures deciding one pattern inclusion.
func BenchmarkPatternInclusion(b *testing.B) {
	for b.Loop() {
		patternIncluded(`^[.\-A-Za-z0-9]{1,100}/[.\-A-Za-z0-9]{1,100}$`, `^[._\-A-Za-z0-9]+/[._\-A-Za-z0-9]+$`, lengths{max: -1})
	}
}
