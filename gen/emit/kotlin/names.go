package kotlin

// hardKeywords are Kotlin's hard keywords: never identifiers unless quoted
// in backticks.
var hardKeywords = map[string]bool{
	"as": true, "break": true, "class": true, "continue": true, "do": true,
	"else": true, "false": true, "for": true, "fun": true, "if": true,
	"in": true, "interface": true, "is": true, "null": true, "object": true,
	"package": true, "return": true, "super": true, "this": true,
	"throw": true, "true": true, "try": true, "typealias": true,
	"typeof": true, "val": true, "var": true, "when": true, "while": true,
}

// quoted returns id in backticks when it is a Kotlin hard keyword.
func quoted(id string) string {
	if hardKeywords[id] {
		return "`" + id + "`"
	}
	return id
}
