package diff

import "fmt"

// Finding is one way in which a new tool schema fails to keep the contract
// of the old one: a decided incompatibility, or a difference the reasoning
// could not decide (Undecided), never a silent pass.
type Finding struct {
	// Rule is the ID of the rule the finding belongs to.
	Rule string
	// Ptr is the JSON pointer, relative to the new schema's root, of the
	// place that changed (or of its nearest enclosing schema).
	Ptr string
	// Keyword is the JSON Schema keyword involved.
	Keyword string
	// Message says what changed, in the words of the direction compared.
	Message string
	// Undecided is set when containment could not be decided.
	Undecided bool
	// Note marks a finding that is no incompatibility, only worth a
	// reviewer's eye (a property added); it does not change the verdict.
	Note bool
}

// CompareInput compares two input schemas (decoded JSON). The new schema
// must accept every instance the old one accepted that the mode counts
// (in Declared mode, those whose members the old schema declares); each
// way it may not is a finding.
func CompareInput(old, new any, mode Mode) []Finding {
	return compareSchemas(new, old, true, mode)
}

// CompareOutput compares two output schemas (decoded JSON). The new schema
// must accept only instances the old one accepted, among those the mode
// counts (in Declared mode, those whose members the new schema declares);
// each way it may not is a finding.
func CompareOutput(old, new any, mode Mode) []Finding {
	return compareSchemas(old, new, false, mode)
}

// compareSchemas checks that wide contains narrow (every instance valid
// against narrow is valid against wide). input says which side is new. In
// Declared mode the narrow side is read as its declared reading first.
func compareSchemas(wide, narrow any, input bool, mode Mode) []Finding {
	if mode == Declared {
		narrow = DeclaredReading(narrow)
	}
	c := &checker{input: input, active: map[string]int{}}
	c.check(rootNode(wide), rootNode(narrow))
	return dedupe(c.out)
}

// maxDepth bounds the recursion through nested and recursive schemas, and
// maxSteps the pairs one comparison visits (unions nested in unions are
// tried branch by branch, which multiplies).
const (
	maxDepth = 64
	maxSteps = 2000
)

// checker walks two schemas side by side and collects findings.
type checker struct {
	input bool
	// active holds the $ref pairs being compared (on the stack), with
	// the instance depth at which each was entered (see enter); inst is
	// the current instance depth.
	active map[string]int
	inst   int
	depth  int
	steps  int
	out    []Finding
	// judge validates values against subschemas (see values_judge.go).
	judge *judge
}

// kind classifies a finding independently of the direction compared.
type kind int

// The kinds of finding: the narrow side admits a type, a missing property,
// a property the closed wide side forbids, a value of a property the wide
// side now constrains, an enum value, a bound, something else, or the
// reasoning cannot decide.
const (
	kType kind = iota
	kRequired
	kClosed
	kDropped
	kEnum
	kBound
	kOther
	kUnknown
	kAdded
)

// ruleIDs names each kind's rule for inputs and for outputs.
var ruleIDs = map[kind][2]string{
	kType:     {"input-type-narrowed", "output-type-widened"},
	kRequired: {"input-required-added", "output-property-optional"},
	kClosed:   {"input-property-removed", "output-widened"},
	kDropped:  {"input-property-constrained", "output-property-removed"},
	kEnum:     {"input-enum-value-removed", "output-enum-value-added"},
	kBound:    {"input-bound-tightened", "output-bound-loosened"},
	kOther:    {"input-narrowed", "output-widened"},
	kUnknown:  {"input-undecided", "output-undecided"},
	kAdded:    {"input-property-added", "output-property-added"},
}

// pick returns the text for the direction compared.
func (c *checker) pick(in, out string) string {
	if c.input {
		return in
	}
	return out
}

// newSide returns the node of the pair that belongs to the new schema.
func (c *checker) newSide(wide, narrow node) node {
	if c.input {
		return wide
	}
	return narrow
}

// add records a finding of kind k about the pair (wide, narrow).
func (c *checker) add(k kind, wide, narrow node, keyword, msg string) {
	ids := ruleIDs[k]
	rule := ids[1]
	if c.input {
		rule = ids[0]
	}
	nw := c.newSide(wide, narrow)
	via := nw.via
	if via != "" && k != kUnknown && k != kAdded {
		rule = c.pick("input", "output") + "-ref-target-changed"
		msg = fmt.Sprintf("$ref %s changed shape: %s", via, msg)
	}
	c.out = append(c.out, Finding{Rule: rule, Ptr: nw.ptr, Keyword: keyword, Message: msg, Undecided: k == kUnknown, Note: k == kAdded})
}

// unknown records that containment at this pair is undecided because of
// keyword.
func (c *checker) unknown(wide, narrow node, keyword, why string) {
	c.add(kUnknown, wide, narrow, keyword, fmt.Sprintf("cannot decide compatibility of %s: %s", keyword, why))
}

// try runs check on a pair without recording its findings, and returns
// those that are incompatibilities (notes are dropped).
func (c *checker) try(wide, narrow node) []Finding {
	saved := c.out
	c.out = nil
	c.check(wide, narrow)
	got := failing(c.out)
	c.out = saved
	return got
}

// failing returns the findings that are not notes.
func failing(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if !f.Note {
			out = append(out, f)
		}
	}
	return out
}

// dedupe drops repeated findings, keeping the first of each.
func dedupe(in []Finding) []Finding {
	seen := map[Finding]bool{}
	var out []Finding
	for _, f := range in {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}
