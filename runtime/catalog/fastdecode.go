package catalog

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// leafParser reads the canonical form of a full leaf, the compact JSON
// appendToolWire writes: no whitespace, every key exact and in the order
// the encoder writes it, at most once. It gives up (ok false) on anything
// else, and the leaf is then decoded by encoding/json's strict decoder, so
// a leaf decodes to the same value, or fails the same way, either way:
// TestLeafParserAgreesWithDecoder holds the two to that. Decoding the
// leaves is most of the delivery gate, and reflection made it several
// times slower.
type leafParser struct {
	data []byte
	pos  int
	ok   bool
}

// parseLeaf decodes data into w if it is a canonical full leaf.
func parseLeaf(data []byte, w *toolWire) bool {
	p := &leafParser{data: data, ok: true}
	p.object(func(key string) bool { return p.toolField(w, key) }, toolKeys)
	return p.ok && p.pos == len(data)
}

// toolKeys are the keys of a full leaf in the order of the encoder.
var toolKeys = []string{"agent_metadata_source", "agent_source_refs", "agent_summary", "agent_summary_source",
	"aliases", "availability", "avoid_when", "canonical_path", "cli_name", "cli_path", "confirmation",
	"description", "display", "effect", "effect_source", "examples", "field_provenance", "group",
	"has_parameters", "idempotency", "interface_mode", "interface_reason", "interface_ref", "is_alias",
	"metadata_source", "name", "parameter_count", "parameters", "path", "primary_cli_path", "product_id",
	"reviewed", "risk", "source", "source_product_id", "title", "use_when"}

func (p *leafParser) toolField(w *toolWire, key string) bool {
	if p.toolText(w, key) {
		return true
	}
	switch key {
	case "agent_source_refs":
		w.AgentSourceRefs = p.strings()
	case "aliases":
		w.Aliases = p.strings()
	case "avoid_when":
		w.AvoidWhen = p.strings()
	case "examples":
		w.Examples = p.strings()
	case "use_when":
		w.UseWhen = p.strings()
	case "field_provenance":
		w.FieldProvenance = p.provenance()
	case "has_parameters":
		w.HasParameters = p.boolean()
	case "is_alias":
		w.IsAlias = p.boolean()
	case "reviewed":
		w.Reviewed = p.boolean()
	case "parameter_count":
		w.ParameterCount = p.integer()
	case "parameters":
		w.Parameters = p.parameters()
	case "interface_ref":
		w.InterfaceRef = p.interfaceRef()
	default:
		return false
	}
	return true
}

// toolText decodes the string fields of a full leaf.
func (p *leafParser) toolText(w *toolWire, key string) bool {
	if s := w.text(key); s != nil {
		*s = p.str()
		return true
	}
	return false
}

// text returns the string field of w with the given key, or nil.
func (w *toolWire) text(key string) *string {
	switch key {
	case "agent_metadata_source":
		return &w.AgentMetadataSource
	case "agent_summary":
		return &w.AgentSummary
	case "agent_summary_source":
		return &w.AgentSummarySource
	case "availability":
		return &w.Availability
	case "canonical_path":
		return &w.CanonicalPath
	case "cli_name":
		return &w.CLIName
	case "cli_path":
		return &w.CLIPath
	case "confirmation":
		return &w.Confirmation
	case "description":
		return &w.Description
	case "display":
		return &w.Display
	case "effect":
		return &w.Effect
	case "effect_source":
		return &w.EffectSource
	case "group":
		return &w.Group
	case "idempotency":
		return &w.Idempotency
	case "interface_mode":
		return &w.InterfaceMode
	case "interface_reason":
		return &w.InterfaceReason
	}
	return w.text2(key)
}

func (w *toolWire) text2(key string) *string {
	switch key {
	case "metadata_source":
		return &w.MetadataSource
	case "name":
		return &w.Name
	case "path":
		return &w.Path
	case "primary_cli_path":
		return &w.PrimaryCLIPath
	case "product_id":
		return &w.ProductID
	case "risk":
		return &w.Risk
	case "source":
		return &w.Source
	case "source_product_id":
		return &w.SourceProductID
	case "title":
		return &w.Title
	}
	return nil
}

// object reads an object whose keys are a subsequence of keys, calling
// field for each; field reads the value.
func (p *leafParser) object(field func(key string) bool, keys []string) {
	if !p.byte('{') {
		return
	}
	next := 0
	for i := 0; p.ok && !p.peek('}'); i++ {
		if i > 0 && !p.byte(',') {
			return
		}
		key := p.key()
		for next < len(keys) && keys[next] != string(key) {
			next++
		}
		if next == len(keys) || !p.byte(':') || !field(keys[next]) {
			p.ok = false
			return
		}
		next++
	}
}

// byte consumes c.
func (p *leafParser) byte(c byte) bool {
	if p.ok && p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	p.ok = false
	return false
}

// peek reports whether c is next, and consumes it if so.
func (p *leafParser) peek(c byte) bool {
	if p.ok && p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// literal consumes lit.
func (p *leafParser) literal(lit string) bool {
	if p.ok && len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
		p.pos += len(lit)
		return true
	}
	return false
}

// key reads a member name without escapes and returns its bytes.
func (p *leafParser) key() []byte {
	if !p.byte('"') {
		return nil
	}
	start := p.pos
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			return p.data[start : p.pos-1]
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			p.ok = false
			return nil
		}
		p.pos++
	}
	p.ok = false
	return nil
}

// str reads a string without surrogate escapes or invalid UTF-8.
func (p *leafParser) str() string {
	if !p.byte('"') {
		return ""
	}
	start := p.pos
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			s := string(p.data[start:p.pos])
			p.pos++
			return s
		case c == '\\':
			return p.escapedStr(start)
		case c < 0x20:
			p.ok = false
			return ""
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, n := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && n == 1 {
				p.ok = false
				return ""
			}
			p.pos += n
		}
	}
	p.ok = false
	return ""
}

// escapedStr reads the rest of a string that has escapes, from start.
func (p *leafParser) escapedStr(start int) string {
	end := start
	for end < len(p.data) && p.data[end] != '"' {
		if p.data[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(p.data) {
		p.ok = false
		return ""
	}
	s, err := strconv.Unquote(string(p.data[start-1 : end+1]))
	if err != nil || !utf8.ValidString(s) || hasSurrogateEscape(p.data[start:end]) || hasControl(p.data[start:end]) {
		p.ok = false
		return ""
	}
	p.pos = end + 1
	return s
}

// hasControl reports a raw control character, which JSON does not allow
// in a string and strconv.Unquote does.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// hasSurrogateEscape reports a \u escape in the range of UTF-16
// surrogates (\uD…), or an escape JSON does not have, which
// strconv.Unquote would read as Go's.
func hasSurrogateEscape(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		i++
		switch b[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if i+1 >= len(b) || b[i+1] == 'd' || b[i+1] == 'D' {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// strings reads null or a list of strings.
func (p *leafParser) strings() []string {
	if p.literal("null") {
		return nil
	}
	out := []string{}
	p.list(func() { out = append(out, p.str()) })
	return out
}

// list reads an array, calling elem for each element.
func (p *leafParser) list(elem func()) {
	if !p.byte('[') {
		return
	}
	for i := 0; p.ok && !p.peek(']'); i++ {
		if i > 0 && !p.byte(',') {
			return
		}
		elem()
	}
}

func (p *leafParser) boolean() bool {
	switch {
	case p.literal("true"):
		return true
	case p.literal("false"):
		return false
	}
	p.ok = false
	return false
}

// integer reads a decimal integer without sign, fraction or exponent.
func (p *leafParser) integer() int {
	start := p.pos
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
	}
	n, err := strconv.Atoi(string(p.data[start:p.pos]))
	if err != nil || (p.pos-start > 1 && p.data[start] == '0') {
		p.ok = false
	}
	return n
}

// raw reads one JSON value and returns a copy of its bytes.
func (p *leafParser) raw() json.RawMessage {
	start := p.pos
	p.skip(0)
	if !p.ok {
		return nil
	}
	return append(json.RawMessage(nil), p.data[start:p.pos]...)
}

// skip reads one compact JSON value: strings, literals, simple numbers,
// arrays and objects nested at most 32 deep.
func (p *leafParser) skip(depth int) {
	if !p.ok || p.pos >= len(p.data) || depth > 32 {
		p.ok = false
		return
	}
	switch c := p.data[p.pos]; {
	case c == '"':
		p.str()
	case c == '[':
		p.list(func() { p.skip(depth + 1) })
	case c == '{':
		p.byte('{')
		for i := 0; p.ok && !p.peek('}'); i++ {
			if i > 0 && !p.byte(',') {
				return
			}
			p.str()
			p.byte(':')
			p.skip(depth + 1)
		}
	case c == '-' || c >= '0' && c <= '9':
		p.number()
	case p.literal("true"), p.literal("false"), p.literal("null"):
	default:
		p.ok = false
	}
}

// number reads a JSON number.
func (p *leafParser) number() {
	start := p.pos
	for p.pos < len(p.data) && isNumberByte(p.data[p.pos]) {
		p.pos++
	}
	if !json.Valid(p.data[start:p.pos]) {
		p.ok = false
	}
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

var provKeys = []string{"candidates", "overridden_candidates", "precedence", "resolution", "review_reason",
	"source", "source_ref", "value"}

// provenance reads null or a field_provenance map.
func (p *leafParser) provenance() map[string]FieldProvenance {
	if p.literal("null") {
		return nil
	}
	m := map[string]FieldProvenance{}
	p.mapOf(func(key string) {
		var f FieldProvenance
		p.object(func(k string) bool {
			switch k {
			case "candidates":
				f.Candidates = p.candidates()
			case "overridden_candidates":
				f.OverriddenCandidates = p.candidates()
			case "precedence":
				f.Precedence = p.str()
			case "resolution":
				f.Resolution = p.str()
			case "review_reason":
				f.ReviewReason = p.str()
			case "source":
				f.Source = p.str()
			case "source_ref":
				f.SourceRef = p.str()
			case "value":
				f.Value = p.raw()
			}
			return true
		}, provKeys)
		if _, dup := m[key]; dup {
			p.ok = false
		}
		m[key] = f
	})
	return m
}

// mapOf reads an object of any keys, calling value for each.
func (p *leafParser) mapOf(value func(key string)) {
	if !p.byte('{') {
		return
	}
	for i := 0; p.ok && !p.peek('}'); i++ {
		if i > 0 && !p.byte(',') {
			return
		}
		key := p.str()
		if !p.byte(':') {
			return
		}
		value(key)
	}
}

var candKeys = []string{"precedence", "review_reason", "selected", "source", "source_ref", "value"}

// candidates reads null or a list of candidates.
func (p *leafParser) candidates() []Candidate {
	if p.literal("null") {
		return nil
	}
	out := make([]Candidate, 0, 3) // a field has one to three candidates, mostly
	p.list(func() {
		var c Candidate
		p.object(func(k string) bool {
			switch k {
			case "precedence":
				c.Precedence = p.str()
			case "review_reason":
				c.ReviewReason = p.str()
			case "selected":
				c.Selected = p.boolean()
			case "source":
				c.Source = p.str()
			case "source_ref":
				c.SourceRef = p.str()
			case "value":
				c.Value = p.raw()
			}
			return true
		}, candKeys)
		out = append(out, c)
	})
	return out
}

var paramKeys = []string{"cli_required", "default", "description", "enum", "example", "field_provenance",
	"format", "interface_description", "interface_type", "property", "required", "required_when", "type"}

// parameters reads null or the parameters map.
func (p *leafParser) parameters() map[string]ParameterSpec {
	if p.literal("null") {
		return nil
	}
	m := map[string]ParameterSpec{}
	p.mapOf(func(key string) {
		var s ParameterSpec
		p.object(func(k string) bool { return p.paramField(&s, k) }, paramKeys)
		if _, dup := m[key]; dup {
			p.ok = false
		}
		m[key] = s
	})
	return m
}

func (p *leafParser) paramField(s *ParameterSpec, k string) bool {
	switch k {
	case "cli_required":
		s.CLIRequired = p.boolean()
	case "default":
		s.Default = p.str()
	case "description":
		s.Description = p.str()
	case "enum":
		s.Enum = p.strings()
	case "example":
		s.Example = p.raw()
	case "field_provenance":
		s.Provenance = p.provenance()
	case "format":
		s.Format = p.str()
	case "interface_description":
		s.InterfaceDescription = p.str()
	case "interface_type":
		s.InterfaceType = p.str()
	case "property":
		s.Property = p.str()
	case "required":
		s.Required = p.boolean()
	case "required_when":
		s.RequiredWhen = p.str()
	case "type":
		s.Type = p.str()
	}
	return true
}

// interfaceRef reads null or an interface ref.
func (p *leafParser) interfaceRef() *InterfaceRef {
	if p.literal("null") {
		return nil
	}
	r := &InterfaceRef{}
	p.object(func(k string) bool {
		if k == "product_id" {
			r.ProductID = p.str()
		} else {
			r.RPCName = p.str()
		}
		return true
	}, []string{"product_id", "rpc_name"})
	return r
}
