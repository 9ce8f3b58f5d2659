package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

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

// listTools returns the v2 list_tools data: {"revision":…,"tools":[…]},
// each tool as session s sees it (see listing.go).
func (p *Provider) listTools(ctx context.Context, caller Caller, s *session) []byte {
	tools := p.visible(ctx, caller, false)
	sync := listsSync(s)
	buf := append([]byte(`{"revision":"`), p.revisionOf(tools, sync)...)
	buf = append(buf, `","tools":[`...)
	for i, t := range tools {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, listedWire(t, s)...)
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

// revisionOf returns the revision of a visible tool list. With
// Descriptor.Revision (the content hash cetpgen computed for the whole
// tool set), every tool visible and every tool listed as declared, it is
// that revision, so a Consumer can compare it with the one its generated
// code pins; a caller who sees a subset, or a session that sees
// sync_or_async tools as sync, gets a hash of that revision, the visible
// names and the listing. Without Descriptor.Revision it is the hash of the
// listed tools' wire forms.
func (p *Provider) revisionOf(tools []*tool, sync bool) string {
	altered := sync && slices.ContainsFunc(tools, func(t *tool) bool { return t.Annotations.Execution == ExecSyncOrAsync })
	switch {
	case p.desc.Revision == "":
		return revision(tools, sync)
	case len(tools) == len(p.order) && !altered:
		return p.desc.Revision
	}
	h := sha256.New()
	h.Write([]byte(p.desc.Revision))
	if altered {
		h.Write([]byte("\x00sync"))
	}
	for _, t := range tools {
		h.Write([]byte{0})
		h.Write([]byte(t.Name))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}
