package provider

import (
	"context"
	"encoding/json"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// providerInfo returns the get_provider_info data of v2 (§3.2) and of v1
// (SDK reference §3).
func providerInfo(d Descriptor) (v2, v1 []byte) {
	scopes := d.Scopes
	if scopes == nil {
		scopes = []Scope{}
	}
	v2, _ = json.Marshal(struct {
		ProviderID    string  `json:"provider_id"`
		ProviderName  string  `json:"provider_name"`
		Description   string  `json:"description"`
		SchemaDialect string  `json:"schema_dialect"`
		Scopes        []Scope `json:"scopes"`
	}{d.ID, d.Name, d.Description, protocol.SchemaDialect, scopes})
	type v1Scope struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	s1 := make([]v1Scope, 0, len(scopes))
	for _, s := range scopes {
		s1 = append(s1, v1Scope{s.Name, s.Description})
	}
	v1, _ = json.Marshal(struct {
		ProviderName string    `json:"provider_name"`
		Description  string    `json:"description"`
		Scopes       []v1Scope `json:"scopes"`
	}{d.Name, d.Description, s1})
	return v2, v1
}

// visible returns the tools caller may see, in name order; v1 callers see
// only read tools (§2.1, §8).
func (p *Provider) visible(ctx context.Context, caller Caller, v1 bool) []*tool {
	out := make([]*tool, 0, len(p.order))
	for _, t := range p.order {
		if v1 && t.Annotations.Effect != EffectRead {
			continue
		}
		if p.opt.Visibility(ctx, caller, t.info) {
			out = append(out, t)
		}
	}
	return out
}

// listTools returns the v2 list_tools data: {"revision":…,"tools":[…]}.
func (p *Provider) listTools(ctx context.Context, caller Caller) []byte {
	tools := p.visible(ctx, caller, false)
	buf := append([]byte(`{"revision":"`), revision(tools)...)
	buf = append(buf, `","tools":[`...)
	for i, t := range tools {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, t.wire...)
	}
	return append(buf, "]}"...)
}

// listToolsV1 returns the v1 list_tools data: {"tools":[{name,description,
// parameters}]} with read tools only.
func (p *Provider) listToolsV1(ctx context.Context, caller Caller) []byte {
	buf := []byte(`{"tools":[`)
	for i, t := range p.visible(ctx, caller, true) {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, t.wireV1...)
	}
	return append(buf, "]}"...)
}
