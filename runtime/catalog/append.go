package catalog

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The append functions write the compact JSON of the payload types by
// hand, byte for byte what json.Marshal writes for them (key order, omitempty,
// HTML escaping, compacted raw values): a full leaf is mostly provenance
// maps, which reflection encodes several times slower. Anything unusual (a
// string that needs escaping, a raw value that is not plain compact JSON, a
// rare nested type) is handed to json.Marshal itself. TestAppendMatchesMarshal
// holds them to that.

// AppendJSONString appends s as json.Marshal writes a string.
func AppendJSONString(b []byte, s string) []byte {
	if plainString(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// plainString reports whether json.Marshal writes s unchanged between
// quotes: no quote, backslash, control or HTML character, valid UTF-8 and
// no line or paragraph separator.
func plainString(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			ascii = false
		case !plainByte[c]:
			return false
		}
	}
	return ascii || utf8.ValidString(s) && !strings.ContainsRune(s, '\u2028') && !strings.ContainsRune(s, '\u2029')
}

// plainByte marks the ASCII bytes json.Marshal writes unchanged inside a
// string.
var plainByte = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = !strings.ContainsRune(`"\<>&`, rune(c))
	}
	return t
}()

// appendStrings appends a list of strings; nil is null.
func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, s)
	}
	return append(b, ']')
}

// appendRaw appends a raw JSON value as json.Marshal does: compacted, with
// HTML characters escaped; nil is null.
func appendRaw(b []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	if simpleRaw(raw) || plainRaw(raw) && json.Valid(raw) {
		return append(b, raw...), nil
	}
	return appendMarshal(b, raw)
}

// simpleRaw reports whether raw is one of the values most provenance
// entries hold, written as json.Marshal writes them: true, false, null, a
// string of plain ASCII, or a list of such strings. Those need no
// validation.
func simpleRaw(raw []byte) bool {
	switch string(raw) {
	case "true", "false", "null", "[]":
		return true
	}
	if len(raw) >= 2 && raw[0] == '[' && raw[len(raw)-1] == ']' {
		for item := range bytes.SplitSeq(raw[1:len(raw)-1], []byte(",")) {
			if !simpleString(item) {
				return false
			}
		}
		return true
	}
	return simpleString(raw)
}

// simpleString reports whether raw is a quoted string of printable ASCII
// without escapes or HTML characters.
func simpleString(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c >= utf8.RuneSelf || !plainByte[c] {
			return false
		}
	}
	return true
}

// plainRaw reports whether raw is printable ASCII without HTML characters
// and without a space outside its strings, so that compacting and escaping
// leave it as it is.
func plainRaw(raw []byte) bool {
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&':
			return false
		case inString:
			inString = escaped || c != '"'
			escaped = !escaped && c == '\\'
		case c == '"':
			inString = true
		case c == ' ':
			return false
		}
	}
	return true
}

// appendMarshal appends json.Marshal(v).
func appendMarshal(b []byte, v any) ([]byte, error) {
	m, err := json.Marshal(v)
	return append(b, m...), err
}

// obj writes the members of one JSON object, remembering whether a comma
// is due and the first error.
type obj struct {
	b   []byte
	n   int
	err error
}

func (o *obj) key(name string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.b, '"')
	o.b = append(o.b, name...)
	o.b = append(o.b, '"', ':')
}

func (o *obj) str(name, v string) {
	o.key(name)
	o.b = AppendJSONString(o.b, v)
}

// strOmit writes a string member with omitempty.
func (o *obj) strOmit(name, v string) {
	if v != "" {
		o.str(name, v)
	}
}

func (o *obj) boolean(name string, v bool) {
	o.key(name)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *obj) integer(name string, v int) {
	o.key(name)
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}

func (o *obj) strs(name string, v []string) {
	o.key(name)
	o.b = appendStrings(o.b, v)
}

func (o *obj) raw(name string, v json.RawMessage) {
	o.key(name)
	o.b, o.err = appendRawErr(o.b, v, o.err)
}

// marshal writes a member through json.Marshal, for the rare nested types.
func (o *obj) marshal(name string, v any) {
	o.key(name)
	var err error
	o.b, err = appendMarshal(o.b, v)
	o.keep(err)
}

func (o *obj) keep(err error) {
	if o.err == nil {
		o.err = err
	}
}

func appendRawErr(b []byte, v json.RawMessage, prev error) ([]byte, error) {
	b, err := appendRaw(b, v)
	if prev != nil {
		return b, prev
	}
	return b, err
}

// begin starts an object on b.
func begin(b []byte) *obj { return &obj{b: append(b, '{')} }

// end closes the object and returns its bytes.
func (o *obj) end() ([]byte, error) { return append(o.b, '}'), o.err }

// sortedKeys appends the keys of m to keys, which the caller may give
// room on its stack, and sorts them.
func sortedKeys[V any](m map[string]V, keys []string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendProvenance appends a field_provenance map; nil is null.
func appendProvenance(b []byte, m map[string]FieldProvenance) ([]byte, error) {
	return appendSortedMap(b, m, appendFieldProvenance)
}

// appendSortedMap appends m as a JSON object with its keys in sorted
// order, each value by enc; nil is null. It returns the first error of enc
// and still writes every entry.
func appendSortedMap[V any](b []byte, m map[string]V, enc func([]byte, *V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '{')
	var err error
	for i, k := range sortedKeys(m, make([]string, 0, 32)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(AppendJSONString(b, k), ':')
		v := m[k]
		var e error
		b, e = enc(b, &v)
		if err == nil {
			err = e
		}
	}
	return append(b, '}'), err
}

func appendFieldProvenance(b []byte, p *FieldProvenance) ([]byte, error) {
	o := begin(b)
	o.key("candidates")
	o.b, o.err = appendCandidates(o.b, p.Candidates)
	if len(p.OverriddenCandidates) > 0 {
		o.key("overridden_candidates")
		var err error
		o.b, err = appendCandidates(o.b, p.OverriddenCandidates)
		o.keep(err)
	}
	o.str("precedence", p.Precedence)
	o.str("resolution", p.Resolution)
	o.strOmit("review_reason", p.ReviewReason)
	o.str("source", p.Source)
	o.strOmit("source_ref", p.SourceRef)
	o.raw("value", p.Value)
	return o.end()
}

// appendCandidates appends a list of candidates; nil is null.
func appendCandidates(b []byte, cs []Candidate) ([]byte, error) {
	if cs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	var err error
	for i := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		o := begin(b)
		c := &cs[i]
		o.str("precedence", c.Precedence)
		o.strOmit("review_reason", c.ReviewReason)
		o.boolean("selected", c.Selected)
		o.str("source", c.Source)
		o.strOmit("source_ref", c.SourceRef)
		o.raw("value", c.Value)
		var e error
		b, e = o.end()
		if err == nil {
			err = e
		}
	}
	return append(b, ']'), err
}

// appendParameters appends the parameters map of a full leaf; nil is null.
func appendParameters(b []byte, m map[string]ParameterSpec) ([]byte, error) {
	return appendSortedMap(b, m, appendParameter)
}

func appendParameter(b []byte, p *ParameterSpec) ([]byte, error) {
	o := begin(b)
	if p.CLIRequired {
		o.boolean("cli_required", true)
	}
	o.strOmit("default", p.Default)
	o.str("description", p.Description)
	if len(p.Enum) > 0 {
		o.strs("enum", p.Enum)
	}
	if len(p.Example) > 0 {
		o.raw("example", p.Example)
	}
	o.key("field_provenance")
	var err error
	o.b, err = appendProvenance(o.b, p.Provenance)
	o.keep(err)
	o.strOmit("format", p.Format)
	o.strOmit("interface_description", p.InterfaceDescription)
	o.strOmit("interface_type", p.InterfaceType)
	o.strOmit("property", p.Property)
	o.boolean("required", p.Required)
	o.strOmit("required_when", p.RequiredWhen)
	o.str("type", p.Type)
	return o.end()
}

// appendInterfaceRef appends an interface ref; nil is null.
func appendInterfaceRef(b []byte, r *InterfaceRef) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	o := begin(b)
	o.str("product_id", r.ProductID)
	o.str("rpc_name", r.RPCName)
	b, _ = o.end()
	return b
}

// appendToolWire appends a full leaf payload.
func appendToolWire(b []byte, w *toolWire) ([]byte, error) {
	o := begin(b)
	o.str("agent_metadata_source", w.AgentMetadataSource)
	o.strs("agent_source_refs", w.AgentSourceRefs)
	o.str("agent_summary", w.AgentSummary)
	o.str("agent_summary_source", w.AgentSummarySource)
	if len(w.Aliases) > 0 {
		o.strs("aliases", w.Aliases)
	}
	o.str("availability", w.Availability)
	o.strs("avoid_when", w.AvoidWhen)
	o.str("canonical_path", w.CanonicalPath)
	o.str("cli_name", w.CLIName)
	o.str("cli_path", w.CLIPath)
	o.str("confirmation", w.Confirmation)
	if w.Constraints != nil {
		o.marshal("constraints", w.Constraints)
	}
	o.str("description", w.Description)
	o.str("display", w.Display)
	if w.DryRun != nil {
		o.marshal("dry_run", w.DryRun)
	}
	o.str("effect", w.Effect)
	o.str("effect_source", w.EffectSource)
	o.strs("examples", w.Examples)
	o.key("field_provenance")
	var err error
	o.b, err = appendProvenance(o.b, w.FieldProvenance)
	o.keep(err)
	o.strOmit("group", w.Group)
	o.boolean("has_parameters", w.HasParameters)
	o.str("idempotency", w.Idempotency)
	o.str("interface_mode", w.InterfaceMode)
	o.strOmit("interface_reason", w.InterfaceReason)
	if w.InterfaceRef != nil { // dws omits an absent ref
		o.key("interface_ref")
		o.b = appendInterfaceRef(o.b, w.InterfaceRef)
	}
	o.boolean("is_alias", w.IsAlias)
	o.strOmit("metadata_source", w.MetadataSource)
	o.str("name", w.Name)
	o.integer("parameter_count", w.ParameterCount)
	o.key("parameters")
	o.b, err = appendParameters(o.b, w.Parameters)
	o.keep(err)
	o.str("path", w.Path)
	if len(w.Positionals) > 0 {
		o.marshal("positionals", w.Positionals)
	}
	o.str("primary_cli_path", w.PrimaryCLIPath)
	o.str("product_id", w.ProductID)
	o.boolean("reviewed", w.Reviewed)
	o.str("risk", w.Risk)
	o.str("source", w.Source)
	o.strOmit("source_product_id", w.SourceProductID)
	o.str("title", w.Title)
	o.strs("use_when", w.UseWhen)
	return o.end()
}

// appendSummaryWire appends a tool summary payload.
func appendSummaryWire(b []byte, w *summaryWire) ([]byte, error) {
	o := begin(b)
	o.str("agent_metadata_source", w.AgentMetadataSource)
	o.str("agent_summary", w.AgentSummary)
	o.str("agent_summary_source", w.AgentSummarySource)
	if len(w.Aliases) > 0 {
		o.strs("aliases", w.Aliases)
	}
	o.str("availability", w.Availability)
	o.strs("avoid_when", w.AvoidWhen)
	o.str("canonical_path", w.CanonicalPath)
	o.str("cli_name", w.CLIName)
	o.str("cli_path", w.CLIPath)
	o.str("confirmation", w.Confirmation)
	o.str("description", w.Description)
	if w.DryRun != nil {
		o.marshal("dry_run", w.DryRun)
	}
	o.str("effect", w.Effect)
	o.strOmit("group", w.Group)
	o.str("idempotency", w.Idempotency)
	o.str("interface_mode", w.InterfaceMode)
	o.strOmit("interface_reason", w.InterfaceReason)
	if w.InterfaceRef != nil { // dws omits an absent ref
		o.key("interface_ref")
		o.b = appendInterfaceRef(o.b, w.InterfaceRef)
	}
	o.strOmit("metadata_source", w.MetadataSource)
	o.str("name", w.Name)
	o.str("primary_cli_path", w.PrimaryCLIPath)
	o.boolean("reviewed", w.Reviewed)
	o.str("risk", w.Risk)
	o.str("title", w.Title)
	o.strs("use_when", w.UseWhen)
	return o.end()
}

// AppendJSON appends the compact full leaf payload of t, the bytes
// json.Marshal(t) writes.
func (t *ToolSpec) AppendJSON(b []byte) ([]byte, error) { return appendToolWire(b, t.wire()) }

// AppendSummaryJSON appends the compact summary payload of t, the bytes
// json.Marshal(t.Summary()) writes.
func (t *ToolSpec) AppendSummaryJSON(b []byte) ([]byte, error) {
	return appendSummaryWire(b, t.summaryWire())
}
