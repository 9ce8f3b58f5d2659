package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/pflag"
)

// flagType maps a pflag value type to a JSON type.
func flagType(t string) string {
	switch {
	case t == "bool":
		return "boolean"
	case strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") || strings.HasSuffix(t, "ToString") || strings.HasSuffix(t, "ToInt64"):
		return "array"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || t == "count":
		return "integer"
	case strings.HasPrefix(t, "float"):
		return "number"
	}
	return "string"
}

// zeroDefault reports whether a flag default is its type's zero value.
func zeroDefault(d string) bool {
	switch d {
	case "", "0", "false", "[]", "0s", "map[]":
		return true
	}
	return false
}

// camel infers a property name from a flag name: sender-user-ids ->
// senderUserIds.
func camel(flag string) string {
	parts := strings.FieldsFunc(flag, func(r rune) bool { return r == '-' || r == '_' })
	for i := 1; i < len(parts); i++ {
		rs := []rune(parts[i])
		rs[0] = unicode.ToUpper(rs[0])
		parts[i] = string(rs)
	}
	return strings.Join(parts, "")
}

// visibleFlags returns the flags of flags that are not hidden: of a bound
// command's Flags, the parameters of its tool.
func visibleFlags(flags []ToolFlag) []ToolFlag {
	var out []ToolFlag
	for _, tf := range flags {
		if !tf.Flag.Hidden {
			out = append(out, tf)
		}
	}
	return out
}

// params resolves every flag of the tool.
func (r *toolResolver) params() {
	flags := visibleFlags(r.bc.Flags)
	known := map[string]bool{}
	for _, f := range flags {
		known[f.Flag.Name] = true
	}
	if err := r.checkFlagRefs(known); err != nil {
		r.errs = append(r.errs, err)
		return
	}
	if len(flags) > 0 {
		r.t.Parameters = make([]catalog.ParameterSpec, 0, len(flags))
	}
	for _, f := range flags {
		p, err := r.param(f)
		if err != nil {
			r.errs = append(r.errs, fmt.Errorf("--%s: %w", f.Flag.Name, err))
			continue
		}
		r.t.Parameters = append(r.t.Parameters, p)
	}
}

// checkFlagRefs fails when an overlay, binding or typed entry names a flag
// the command does not accept.
func (r *toolResolver) checkFlagRefs(known map[string]bool) error {
	var names []string
	for _, m := range r.s.meta[r.canonical()] {
		names = append(names, slices.Sorted(maps.Keys(m.m.Parameters))...)
	}
	names = append(names, slices.Sorted(maps.Keys(r.s.bindings[r.canonical()]))...)
	names = append(names, slices.Sorted(maps.Keys(r.s.typed[r.canonical()].Parameters))...)
	names = append(names, r.s.exclFlag[r.canonical()]...)
	var missing []string
	for _, n := range names {
		if !known[n] {
			missing = append(missing, "--"+n)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("sources name flag(s) %s, which %q does not accept (as a visible flag of its own or one inherited from a parent below the root)",
			strings.Join(slices.Compact(missing), ", "), r.bc.Spec.CLIPath)
	}
	return nil
}

// paramResolver resolves the fields of one flag.
type paramResolver struct {
	r     *toolResolver
	f     *pflag.Flag
	cobra string // source_ref of the cobra candidates: the ancestor of an inherited flag
	p     catalog.ParameterSpec
	err   error
	ifc   InterfaceParam
	ifcOK bool
	typed TypedParameter
	ovl   []metaOverlay
}

type metaOverlay struct {
	o   ParameterOverlay
	ref string
}

func (r *toolResolver) param(tf ToolFlag) (catalog.ParameterSpec, error) {
	f := tf.Flag
	pr := &paramResolver{r: r, f: f, cobra: inheritedRef(tf), typed: r.s.typed[r.canonical()].Parameters[f.Name],
		p: catalog.ParameterSpec{Name: f.Name, Provenance: map[string]catalog.FieldProvenance{}}}
	for _, m := range r.s.meta[r.canonical()] {
		if o, ok := m.m.Parameters[f.Name]; ok {
			pr.ovl = append(pr.ovl, metaOverlay{o, m.ref})
		}
	}
	pr.p.Type = pickParam(pr, "type", []cand[string]{{value: flagType(f.Value.Type()), source: "cobra_flag_type", ref: pr.cobra, prec: PrecCobraContract}})
	pr.property()
	pr.ifc, pr.ifcOK = r.s.ifc[r.canonical()].Parameters[pr.p.Property]
	pr.description()
	pr.required()
	pr.extras()
	return pr.p, pr.err
}

// pickParam resolves one parameter field and records its provenance.
func pickParam[T any](pr *paramResolver, field string, cs []cand[T]) T {
	v, p, err := pick(ParameterRanks, field, cs)
	if err != nil && pr.err == nil {
		pr.err = err
	}
	pr.p.Provenance[field] = p
	return v
}

func (pr *paramResolver) ovlString(get func(*ParameterOverlay) *string) []cand[string] {
	var cs []cand[string]
	for _, o := range pr.ovl {
		if v := get(&o.o); v != nil {
			cs = append(cs, cand[string]{value: *v, source: o.ref, prec: PrecReviewedManual})
		}
	}
	return cs
}

// property: reviewed overlay > versioned binding or reasoned mapping
// exclusion > name inference (only for tools with a pinned interface).
func (pr *paramResolver) property() {
	r, name := pr.r, pr.f.Name
	cs := pr.ovlString(func(o *ParameterOverlay) *string { return o.Property })
	if prop, ok := r.s.bindings[r.canonical()][name]; ok {
		cs = append(cs, cand[string]{value: prop, source: "versioned_parameter_binding", ref: r.s.bindingsRef(), prec: PrecVersionedBinding,
			reason: r.s.correctionReason(r.canonical() + " --" + name)})
	}
	if reason, ok := r.s.mapExcl[r.canonical()+" --"+name]; ok {
		cs = append(cs, cand[string]{value: "", source: "reviewed_mapping_exclusion", ref: r.s.bindingsRef(), prec: PrecMappingExclusion, reason: reason})
	}
	if _, pinned := r.s.ifc[r.canonical()]; pinned {
		cs = append(cs, cand[string]{value: camel(name), source: "flag_name_inference", prec: PrecInference})
	}
	pr.p.Property = pickParam(pr, "property", append(cs, cand[string]{value: "", source: "default", prec: PrecDefault}))
}

// correctionReason is the reason of the reviewed correction of a binding,
// kept as the review_reason of its provenance.
func (s *sourceSet) correctionReason(key string) string {
	if s.in.Bindings == nil {
		return ""
	}
	return s.in.Bindings.Corrections[key].Reason
}

func (s *sourceSet) bindingsRef() string {
	if s.in.Bindings == nil {
		return ""
	}
	return s.in.Bindings.Ref
}

// description: overlay > typed metadata > cobra usage > interface.
func (pr *paramResolver) description() {
	cs := pr.ovlString(func(o *ParameterOverlay) *string { return o.Description })
	cs = appendNonEmpty(cs, pr.typed.Description, "typed_parameter_metadata", pr.r.s.typedRef(), PrecTypedMetadata)
	cs = appendNonEmpty(cs, pr.f.Usage, "cobra_usage", pr.cobra, PrecCobraContract)
	if pr.ifcOK {
		cs = appendNonEmpty(cs, pr.ifc.Description, "mcp_metadata", pr.r.s.ifcRef(), PrecMCPMetadata)
	}
	pr.p.Description = pickParam(pr, "description", append(cs, cand[string]{value: "", source: "default", prec: PrecDefault}))
	// As in dws, interface_description is delivered only when it differs
	// from the delivered description.
	if pr.ifcOK && pr.ifc.Description != pr.p.Description {
		pr.p.InterfaceDescription = pr.ifc.Description
	}
	if pr.p.InterfaceDescription != "" {
		pickParam(pr, "interface_description", []cand[string]{{value: pr.p.InterfaceDescription, source: "mcp_metadata", ref: pr.r.s.ifcRef(), prec: PrecMCPMetadata}})
	}
}

func (s *sourceSet) typedRef() string {
	if s.in.Typed == nil {
		return ""
	}
	return s.in.Typed.Ref
}

// required: overlay > typed metadata > cobra (hard required, or a
// non-zero default) > interface > false. cli_required is cobra's own fact.
func (pr *paramResolver) required() {
	var cs []cand[bool]
	for _, o := range pr.ovl {
		if o.o.Required != nil {
			cs = append(cs, cand[bool]{value: *o.o.Required, source: o.ref, prec: PrecReviewedManual})
		}
	}
	if pr.typed.Required != nil {
		cs = append(cs, cand[bool]{value: *pr.typed.Required, source: "typed_parameter_metadata", ref: pr.r.s.typedRef(), prec: PrecTypedMetadata})
	}
	hard := hardRequired(pr.f)
	if hard {
		cs = append(cs, cand[bool]{value: true, source: "cobra_hard_required", ref: pr.cobra, prec: PrecCobraContract})
	} else if !zeroDefault(pr.f.DefValue) {
		cs = append(cs, cand[bool]{value: false, source: "cobra_nonzero_default", ref: pr.cobra, prec: PrecCobraContract})
	}
	if pr.ifcOK {
		cs = append(cs, cand[bool]{value: pr.ifc.Required, source: "mcp_metadata", ref: pr.r.s.ifcRef(), prec: PrecMCPMetadata})
	}
	pr.p.Required = pickParam(pr, "required", append(cs, cand[bool]{value: false, source: "default", prec: PrecDefault}))
	if hard {
		pr.p.CLIRequired = pickParam(pr, "cli_required", []cand[bool]{{value: true, source: "cobra_hard_required", ref: pr.cobra, prec: PrecCobraContract}})
	}
	rw := pr.ovlString(func(o *ParameterOverlay) *string { return o.RequiredWhen })
	pr.p.RequiredWhen = pickParam(pr, "required_when", append(rw, cand[string]{value: "", source: "default", prec: PrecDefault}))
}

// extras resolves the optional fields: default, format, enum, example and
// interface_type; each gets provenance only when it is set.
func (pr *paramResolver) extras() {
	if !zeroDefault(pr.f.DefValue) {
		pr.p.Default = pickParam(pr, "default", []cand[string]{{value: pr.f.DefValue, source: "cobra_default", ref: pr.cobra, prec: PrecCobraContract}})
	}
	if pr.typed.Format != "" {
		pr.p.Format = pickParam(pr, "format", []cand[string]{{value: pr.typed.Format, source: "typed_parameter_metadata", ref: pr.r.s.typedRef(), prec: PrecTypedMetadata}})
	}
	pr.enum()
	if pr.typed.Example != nil {
		ex := pickParam(pr, "example", []cand[any]{{value: pr.typed.Example, source: "typed_parameter_metadata", ref: pr.r.s.typedRef(), prec: PrecTypedMetadata}})
		pr.p.Example, _ = json.Marshal(ex)
	}
	pr.interfaceType()
}

func (pr *paramResolver) enum() {
	var cs []cand[[]string]
	if len(pr.typed.Enum) > 0 {
		cs = append(cs, cand[[]string]{value: pr.typed.Enum, source: "typed_parameter_metadata", ref: pr.r.s.typedRef(), prec: PrecTypedMetadata})
	}
	if pr.ifcOK && len(pr.ifc.Enum) > 0 {
		cs = append(cs, cand[[]string]{value: pr.ifc.Enum, source: "mcp_metadata", ref: pr.r.s.ifcRef(), prec: PrecMCPMetadata})
	}
	if len(cs) > 0 {
		pr.p.Enum = pickParam(pr, "enum", cs)
	}
}

func (pr *paramResolver) interfaceType() {
	cs := pr.ovlString(func(o *ParameterOverlay) *string { return o.InterfaceType })
	if pr.ifcOK && pr.ifc.Type != "" {
		cs = append(cs, cand[string]{value: pr.ifc.Type, source: "mcp_metadata", ref: pr.r.s.ifcRef(), prec: PrecMCPMetadata})
	}
	if len(cs) == 0 {
		return
	}
	cs = append(cs, cand[string]{value: pr.p.Type, source: "cobra_flag_type", ref: pr.cobra, prec: PrecFallback})
	pr.p.InterfaceType = pickParam(pr, "interface_type", cs)
	// As in dws, interface_type is delivered only when it differs from
	// type; an equal one says nothing and has no provenance entry.
	if pr.p.InterfaceType == pr.p.Type {
		pr.p.InterfaceType = ""
		delete(pr.p.Provenance, "interface_type")
	}
}

// inheritedRef is the source_ref of the cobra candidates of an inherited
// flag: which ancestor declares it. A leaf's own flag has none.
func inheritedRef(tf ToolFlag) string {
	if tf.From == "" {
		return ""
	}
	return fmt.Sprintf("persistent flag of %q", tf.From)
}
