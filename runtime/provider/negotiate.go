package provider

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// maxConsumerCapabilities bounds the capability list a Consumer may send.
const maxConsumerCapabilities = 64

// negotiate answers §2.2: the highest common version, the capabilities both
// sides (and this runtime) support, the limits, and a session token bound
// to the caller's UID, the version and the capabilities.
func (p *Provider) negotiate(caller Caller, extras protocol.Bundle, echo protocol.Echo) protocol.Bundle {
	versions, ok, _ := extras.IntArray(protocol.KeyConsumerVersions)
	if !ok {
		return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeInvalidRequest, "consumer_versions is required"))
	}
	capsJSON, ok, _ := extras.String(protocol.KeyConsumerCapabilities)
	if !ok {
		return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeInvalidRequest, "consumer_capabilities is required"))
	}
	var asked []string
	if len(capsJSON) > 4096 || json.Unmarshal([]byte(capsJSON), &asked) != nil || asked == nil || len(asked) > maxConsumerCapabilities {
		return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeInvalidRequest, "consumer_capabilities must be a JSON array of strings"))
	}
	selected := 0
	for _, v := range versions {
		if int(v) > selected && slices.Contains(p.desc.Versions, int(v)) {
			selected = int(v)
		}
	}
	if selected == 0 {
		return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeUnsupportedVersion, "no common protocol version"))
	}
	caps := intersect(p.caps, asked)
	if !slices.Contains(caps, protocol.CapAsyncOperations) {
		caps = slices.DeleteFunc(caps, func(c string) bool { return c == protocol.CapCancellation })
	}
	if selected == protocol.Version1 {
		caps = []string{}
	}
	return p.openSession(caller, selected, caps, echo)
}

func (p *Provider) openSession(caller Caller, version int, caps []string, echo protocol.Echo) protocol.Bundle {
	now := p.opt.Now()
	expires := now.Add(p.opt.SessionTTL)
	data := struct {
		SelectedVersion int      `json:"selected_version"`
		ProviderID      string   `json:"provider_id"`
		ProviderName    string   `json:"provider_name"`
		SessionToken    string   `json:"session_token,omitempty"`
		ExpiresAt       string   `json:"expires_at,omitempty"`
		Capabilities    []string `json:"capabilities"`
		Limits          Limits   `json:"limits"`
	}{SelectedVersion: version, ProviderID: p.desc.ID, ProviderName: p.desc.Name, Capabilities: caps, Limits: p.limits}
	if version == protocol.Version2 {
		tok, err := p.sessions.add(&session{uid: caller.UID, version: version, caps: caps, expires: expires}, now)
		if err != nil {
			return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeUnavailable, "cannot open a session now"))
		}
		data.SessionToken = tok
		data.ExpiresAt = expires.UTC().Format(time.RFC3339)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeInternalError, "Provider internal error"))
	}
	echo.Version = int32(version)
	return protocol.Success(echo, raw)
}
