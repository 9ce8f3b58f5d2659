package diff

import (
	"fmt"
	"slices"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/gen/source"
)

// tools compares the tool sets: removed (or renamed), added, and changed.
func (c *comparison) tools() {
	removed, added := c.toolSets()
	removed, added = c.renames(removed, added)
	for _, t := range removed {
		c.add("tool-removed", t.Name, source.FileStart(c.new.File), "tool %s removed", t.Name)
	}
	for _, t := range added {
		c.addedTool(t)
	}
	for _, nt := range c.new.Tools {
		if ot := findTool(c.old, nt.Name); ot != nil {
			c.tool(ot, nt)
		}
	}
	for _, t := range removed {
		c.changed(t.Name)
	}
	for _, t := range added {
		c.changed(t.Name)
	}
}

// changed records that tool name changed content the revision covers.
func (c *comparison) changed(name string) {
	c.toolsChanged = true
	c.changedTools = append(c.changedTools, name)
}

// toolSets returns the old tools missing from new and the new tools
// missing from old.
func (c *comparison) toolSets() (removed, added []*ir.Tool) {
	for _, t := range c.old.Tools {
		if findTool(c.new, t.Name) == nil {
			removed = append(removed, t)
		}
	}
	for _, t := range c.new.Tools {
		if findTool(c.old, t.Name) == nil {
			added = append(added, t)
		}
	}
	return removed, added
}

// findTool returns p's tool named name, or nil.
func findTool(p *ir.Provider, name string) *ir.Tool {
	for _, t := range p.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// renames pairs each removed tool with an added tool of the same contract
// (schemas, scopes, annotations), reports the pair as a rename, and
// returns the tools left over.
func (c *comparison) renames(removed, added []*ir.Tool) ([]*ir.Tool, []*ir.Tool) {
	var left []*ir.Tool
	for _, ot := range removed {
		i := slices.IndexFunc(added, func(nt *ir.Tool) bool { return sameContract(ot, nt) })
		if i < 0 {
			left = append(left, ot)
			continue
		}
		nt := added[i]
		added = slices.Delete(added, i, i+1)
		c.add("tool-renamed", nt.Name, nt.PosOf("/name"), "tool %s renamed to %s", ot.Name, nt.Name)
		c.changed(ot.Name)
		c.changed(nt.Name)
	}
	return left, added
}

// sameContract reports whether two tools have the same schemas, scopes and
// annotations.
func sameContract(a, b *ir.Tool) bool {
	return string(a.Input.JSON) == string(b.Input.JSON) && string(a.Output.JSON) == string(b.Output.JSON) &&
		slices.Equal(scopeNames(a), scopeNames(b)) && a.Annotations == b.Annotations
}

// scopeNames returns the names of a tool's scopes, sorted.
func scopeNames(t *ir.Tool) []string {
	var out []string
	for _, s := range t.Scopes {
		out = append(out, s.Name)
	}
	return out
}

// addedTool reports a new tool: a write tool is a safety change.
func (c *comparison) addedTool(t *ir.Tool) {
	a := t.Annotations
	if a.Effect.Writes() {
		c.add("write-tool-added", t.Name, t.PosOf("/annotations/effect"),
			"new %s tool %s (risk %s, confirmation %s, scopes %v)", a.Effect, t.Name, a.Risk, a.Confirmation, scopeNames(t))
		return
	}
	c.add("tool-added", t.Name, t.PosOf("/name"), "new read tool %s", t.Name)
}

// tool compares one tool present on both sides.
func (c *comparison) tool(old, new *ir.Tool) {
	if toolKey(old) != toolKey(new) {
		c.changed(new.Name)
	}
	if old.Title != new.Title || old.Description != new.Description {
		c.add("tool-text-changed", new.Name, new.PosOf("/description"), "title or description changed")
	}
	c.annotations(old, new)
	c.toolScopes(old, new)
	c.schemas(old, new)
}

// toolKey is the content of a tool that its revision covers, computed
// independently of package ir so that the revision can be checked.
func toolKey(t *ir.Tool) string {
	var scopes []string
	for _, s := range t.Scopes {
		scopes = append(scopes, s.Name+"/"+string(s.Access)+"/"+string(s.Sensitivity))
	}
	return fmt.Sprintf("%q %q %s %s %q %+v", t.Title, t.Description, t.Input.JSON, t.Output.JSON, scopes, t.Annotations)
}

// toolScopes compares the scopes a tool requires.
func (c *comparison) toolScopes(old, new *ir.Tool) {
	on, nn := scopeNames(old), scopeNames(new)
	for _, s := range nn {
		if !slices.Contains(on, s) {
			c.add("tool-scope-added", new.Name, new.PosOf("/scopes"), "now requires scope %s", s)
		}
	}
	for _, s := range on {
		if !slices.Contains(nn, s) {
			c.add("tool-scope-removed", new.Name, new.PosOf("/scopes"), "no longer requires scope %s", s)
		}
	}
}

// schemas compares a tool's input and output schemas and records its
// verdict.
func (c *comparison) schemas(old, new *ir.Tool) {
	in := CompareInput(old.Input.Value, new.Input.Value, c.r.Mode)
	out := CompareOutput(old.Output.Value, new.Output.Value, c.r.Mode)
	c.findings(new, new.Input, in)
	c.findings(new, new.Output, out)
	c.r.Tools = append(c.r.Tools, ToolVerdict{Tool: new.Name, Input: verdict(in), Output: verdict(out)})
}

// findings turns schema findings into changes at their place in the new
// schema.
func (c *comparison) findings(t *ir.Tool, s *ir.Schema, fs []Finding) {
	for _, f := range fs {
		c.add(f.Rule, t.Name, s.PosOf(keywordPtr(f)), "%s%s: %s", s.Ptr, f.Ptr, f.Message)
		c.r.Changes[len(c.r.Changes)-1].Undecided = f.Undecided
	}
}

// valueKeywords are the keywords whose own value a finding is about, so
// that its position is the keyword's line (maxItems: 10), not the
// schema's.
var valueKeywords = map[string]bool{
	"type": true, "enum": true, "const": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true,
}

// keywordPtr returns the pointer of the keyword a finding is about, when
// it is a keyword with a value of its own; a keyword the new schema does
// not have resolves to the schema itself.
func keywordPtr(f Finding) string {
	if valueKeywords[f.Keyword] {
		return f.Ptr + "/" + f.Keyword
	}
	return f.Ptr
}

// verdict summarizes findings: "compatible" when there are none but
// notes, "incompatible" when one is decided, else "unknown".
func verdict(fs []Finding) string {
	fs = failing(fs)
	if len(fs) == 0 {
		return "compatible"
	}
	if slices.ContainsFunc(fs, func(f Finding) bool { return !f.Undecided }) {
		return "incompatible"
	}
	return "unknown"
}
