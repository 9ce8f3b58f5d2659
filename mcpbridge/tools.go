package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Keys of the _meta objects the bridge writes. Everything under them is
// the bridge's or the Provider's (untrusted) data; the bridge never reads
// a _meta key the host sends, beyond the progress token.
const (
	MetaAnnotations = "cetp/annotations"
	MetaScopes      = "cetp/scopes"
	MetaProviderID  = "cetp/provider_id"
	MetaRevision    = "cetp/revision"
	MetaRequestID   = "cetp/request_id"
	MetaOperationID = "cetp/operation_id"
	MetaState       = "cetp/state"
	MetaProgress    = "cetp/progress"
	MetaError       = "cetp/error"
)

// Refresh asks the Provider for its tools (list_tools, as this bridge's
// identity sees them) and, when the revision differs from the one the
// host was given, replaces the MCP tools: the SDK then sends
// notifications/tools/list_changed to the host. A tool whose input schema
// is not a JSON object schema cannot be offered over MCP and is left out
// with a log line, as are the tools the CETP client rejected.
func (b *Bridge) Refresh(ctx context.Context) error {
	list, err := b.client.ListTools(ctx)
	if err != nil {
		return err
	}
	return b.publish(list)
}

// publish installs the tools of list unless its revision is the one
// already published.
func (b *Bridge) publish(list *consumer.ToolList) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.client.Session(); s != nil {
		b.provider = s.ProviderID
	}
	if b.listed && list.Revision == b.revision {
		return nil
	}
	for _, r := range list.Rejected {
		b.opt.Logger.Warn("tool left out", "tool", printable(r.Name), "reason", r.Reason)
	}
	var names []string
	for _, t := range list.Tools {
		mt, err := b.mcpTool(t, list.Revision)
		if err == nil {
			err = addTool(b.server, mt, b.handler(t.Name))
		}
		if err != nil {
			b.opt.Logger.Warn("tool left out", "tool", t.Name, "reason", err.Error())
			continue
		}
		names = append(names, t.Name)
	}
	var gone []string
	for _, n := range b.names {
		if !slices.Contains(names, n) {
			gone = append(gone, n)
		}
	}
	if len(gone) > 0 {
		b.server.RemoveTools(gone...)
	}
	if b.listed {
		b.opt.Logger.Info("tool list changed", "revision", list.Revision, "tools", len(names))
	}
	b.revision, b.listed, b.names = list.Revision, true, names
	return nil
}

// addTool adds t to server. The SDK panics on a tool it cannot serve (an
// input schema it refuses, such as a malformed x-mcp-header); a
// Provider's schema is untrusted, so that tool is refused instead of
// ending the bridge.
func addTool(server *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the MCP SDK refuses it: %v", r)
		}
	}()
	server.AddTool(t, h)
	return nil
}

// checkRevision publishes the list again when the CETP client learned a
// new revision (it lists tools after every new negotiation to check
// results), so that the host hears of a change at once.
func (b *Bridge) checkRevision(ctx context.Context) {
	b.mu.Lock()
	stale := b.listed && b.client.Revision() != "" && b.client.Revision() != b.revision
	b.mu.Unlock()
	if stale {
		if err := b.Refresh(ctx); err != nil {
			b.opt.Logger.Warn("list_tools failed; the listed tools stay", "err", err)
		}
	}
}

// refreshOnList is a receiving middleware that answers tools/list from a
// fresh list_tools: the host sees what the Provider shows this identity
// now, never a list cached from an earlier answer. A Provider that cannot
// be reached fails the tools/list.
func (b *Bridge) refreshOnList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			if err := b.Refresh(ctx); err != nil {
				return nil, fmt.Errorf("list_tools of the CETP Provider: %w", err)
			}
		}
		return next(ctx, method, req)
	}
}

// mcpTool maps one CETP tool to an MCP tool (docs/mcp.md, the mapping
// table): the texts marked as untrusted and capped, the schemas as given,
// the safety annotations as MCP hints and whole in _meta.
func (b *Bridge) mcpTool(t consumer.Tool, revision string) (*mcp.Tool, error) {
	in, err := objectSchema(t.InputSchema)
	if err != nil {
		return nil, err
	}
	mt := &mcp.Tool{
		Name:        t.Name,
		Title:       printable(t.Title),
		Description: b.description(t),
		InputSchema: in,
		Annotations: hints(t),
		Meta: mcp.Meta{
			MetaAnnotations: b.metaAnnotations(t),
			MetaScopes:      slices.Clone(t.Scopes),
			MetaProviderID:  b.provider,
			MetaRevision:    revision,
		},
	}
	if len(t.OutputSchema) > 0 {
		mt.OutputSchema = t.OutputSchema
	}
	return mt, nil
}

// maxAnnotationBytes caps the annotations kept whole in _meta: the safety
// annotations are a few short values, and a Provider may add keys of its
// own (§3.2 lets a Consumer ignore them), which should not swell every
// tools/list.
const maxAnnotationBytes = 4096

// metaAnnotations are the tool's annotations for _meta: all of them, or,
// when they encode to more than maxAnnotationBytes, only those §3.4
// defines (the CETP client checked that every one is present and known).
func (b *Bridge) metaAnnotations(t consumer.Tool) map[string]any {
	if raw, err := json.Marshal(t.Annotations); err == nil && len(raw) <= maxAnnotationBytes {
		return t.Annotations
	}
	b.opt.Logger.Warn("extra annotations left out of _meta: too large", "tool", t.Name)
	out := map[string]any{}
	for _, v := range protocol.AnnotationVocabularies() {
		out[v.Field] = t.Annotations[v.Field]
	}
	for _, k := range protocol.AnnotationFlags {
		out[k] = t.Annotations[k]
	}
	return out
}

// objectSchema returns raw when it is a JSON object with type "object",
// the only input schema MCP allows.
func objectSchema(raw json.RawMessage) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("input_schema is not a JSON object")
	}
	if m["type"] != "object" {
		return nil, fmt.Errorf(`input_schema does not have type "object", which MCP requires`)
	}
	return raw, nil
}

// hints maps the CETP safety annotations (§3.4) to MCP tool annotations.
// The CETP client only lists tools whose annotations are all present and
// known, so every value read here is well-formed.
func hints(t consumer.Tool) *mcp.ToolAnnotations {
	a := t.Annotations
	destructive, _ := a["destructive"].(bool)
	openWorld, _ := a["open_world"].(bool)
	idempotent, _ := a["idempotent"].(bool)
	readOnly := a["effect"] == "read"
	return &mcp.ToolAnnotations{
		Title:           printable(t.Title),
		ReadOnlyHint:    readOnly,
		DestructiveHint: &destructive,
		IdempotentHint:  idempotent,
		OpenWorldHint:   &openWorld,
	}
}

// description is the tool's description, marked as the Provider's
// untrusted text and capped, followed by what the bridge guarantees
// about confirmation.
func (b *Bridge) description(t consumer.Tool) string {
	d := untrusted("description", capText(t.Description, b.opt.MaxDescription))
	if t.Annotations["confirmation"] == "always" {
		d += "\n\nThe Provider asks its user to confirm every call of this tool in its own UI; no approval given here replaces that confirmation."
	}
	return d
}
