package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Provider is the wire struct of provider.yaml, key for key.
type Provider struct {
	Cetpgen      Int          `json:"cetpgen"`
	Provider     Identity     `json:"provider"`
	Android      Android      `json:"android"`
	Versions     []Int        `json:"versions"`
	Capabilities []string     `json:"capabilities"`
	Limits       *Limits      `json:"limits"`
	Scopes       []Scope      `json:"scopes"`
	Targets      *Targets     `json:"targets"`
	CLI          *ProviderCLI `json:"cli"`
}

// Identity is provider.yaml's provider block.
type Identity struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Android is provider.yaml's android block.
type Android struct {
	Package   string `json:"package"`
	Authority string `json:"authority"`
}

// Limits is provider.yaml's limits block, which states all four limits.
type Limits struct {
	MaxRequestBytes          Int `json:"max_request_bytes"`
	MaxInlineResultBytes     Int `json:"max_inline_result_bytes"`
	MaxConcurrentRequests    Int `json:"max_concurrent_requests"`
	IdempotencyWindowSeconds Int `json:"idempotency_window_seconds"`
}

// Int is an integer as JSON Schema defines it: any number with a zero
// fractional part, so 65536, 65536.0 and 6.5536e4 are all 65536.
type Int int64

// UnmarshalJSON decodes any integral JSON number that fits in 64 bits.
func (i *Int) UnmarshalJSON(data []byte) error {
	r, ok := new(big.Rat).SetString(string(data))
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return fmt.Errorf("%s is not a 64-bit integer", data)
	}
	*i = Int(r.Num().Int64())
	return nil
}

// Scope is one entry of provider.yaml's scopes.
type Scope struct {
	Name        string               `json:"name"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Access      protocol.Access      `json:"access"`
	Sensitivity protocol.Sensitivity `json:"sensitivity"`
}

// Targets holds the per-target options of provider.yaml.
type Targets struct {
	Go     *GoTarget     `json:"go"`
	Kotlin *KotlinTarget `json:"kotlin"`
}

// GoTarget holds the Go generator's options.
type GoTarget struct {
	Package string `json:"package"`
	// Server is the Go server skeleton's directory under the output root.
	Server string `json:"server"`
}

// KotlinTarget holds the Kotlin generator's options.
type KotlinTarget struct {
	Package string `json:"package"`
	Class   string `json:"class"`
}

// ProviderCLI is provider.yaml's cli block.
type ProviderCLI struct {
	Product string `json:"product"`
}

// Tool is the wire struct of one tools/<name>.yaml.
type Tool struct {
	Name         string      `json:"name"`
	Title        string      `json:"title"`
	Description  string      `json:"description"`
	InputSchema  any         `json:"input_schema"`
	OutputSchema any         `json:"output_schema"`
	Scopes       []string    `json:"scopes"`
	Annotations  Annotations `json:"annotations"`
	CLI          *ToolCLI    `json:"cli"`
}

// Annotations are the seven safety annotations of CETP v2 §3.4, typed
// with the protocol's vocabulary (a value outside it is a meta-schema
// error before any rule reads it).
type Annotations struct {
	Effect       protocol.Effect       `json:"effect"`
	Risk         protocol.Risk         `json:"risk"`
	Destructive  bool                  `json:"destructive"`
	Idempotent   bool                  `json:"idempotent"`
	OpenWorld    bool                  `json:"open_world"`
	Confirmation protocol.Confirmation `json:"confirmation"`
	Execution    protocol.Execution    `json:"execution"`
}

// ToolCLI is a tool's cli block.
type ToolCLI struct {
	Path      string     `json:"path"`
	Aliases   []string   `json:"aliases"`
	Selection *Selection `json:"selection"`
}

// Selection is the agent-facing guidance of a tool's cli block.
type Selection struct {
	Summary   string   `json:"summary"`
	UseWhen   []string `json:"use_when"`
	AvoidWhen []string `json:"avoid_when"`
	Examples  []string `json:"examples"`
}

// DecodeProvider decodes a provider.yaml Doc into its wire struct. The Doc
// must have passed the provider meta-schema.
func DecodeProvider(d *Doc) (*Provider, error) {
	var p Provider
	return &p, decode(d, &p)
}

// DecodeTool decodes a tool Doc into its wire struct. The Doc must have
// passed the tool meta-schema, which guarantees every type asserted here;
// it reads the JSON value directly, as tool files are many and a JSON
// round trip would cost more than the rest of their loading.
func DecodeTool(d *Doc) (*Tool, error) {
	obj, ok := d.Value.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("decode %s: not an object", d.Path)
	}
	t := &Tool{
		Name: str(obj, "name"), Title: str(obj, "title"), Description: str(obj, "description"),
		InputSchema: obj["input_schema"], OutputSchema: obj["output_schema"],
		Scopes: strs(obj, "scopes"), Annotations: decodeAnnotations(obj),
	}
	if c, ok := obj["cli"].(map[string]any); ok {
		t.CLI = decodeToolCLI(c)
	}
	return t, nil
}

func decodeAnnotations(tool map[string]any) Annotations {
	a, _ := tool["annotations"].(map[string]any)
	return Annotations{
		Effect: protocol.Effect(str(a, "effect")), Risk: protocol.Risk(str(a, "risk")), Destructive: a["destructive"] == true,
		Idempotent: a["idempotent"] == true, OpenWorld: a["open_world"] == true,
		Confirmation: protocol.Confirmation(str(a, "confirmation")), Execution: protocol.Execution(str(a, "execution")),
	}
}

func decodeToolCLI(c map[string]any) *ToolCLI {
	out := &ToolCLI{Path: str(c, "path"), Aliases: strs(c, "aliases")}
	if s, ok := c["selection"].(map[string]any); ok {
		out.Selection = &Selection{Summary: str(s, "summary"), UseWhen: strs(s, "use_when"),
			AvoidWhen: strs(s, "avoid_when"), Examples: strs(s, "examples")}
	}
	return out
}

// str returns obj[key] as a string ("" when absent).
func str(obj map[string]any, key string) string {
	s, _ := obj[key].(string)
	return s
}

// strs returns obj[key] as a list of strings (nil when absent).
func strs(obj map[string]any, key string) []string {
	list, _ := obj[key].([]any)
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, v := range list {
		out[i], _ = v.(string)
	}
	return out
}

func decode(d *Doc, v any) error {
	data, err := json.Marshal(d.Value)
	if err != nil {
		return fmt.Errorf("decode %s: %w", d.Path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decode %s: %w", d.Path, err)
	}
	return nil
}
