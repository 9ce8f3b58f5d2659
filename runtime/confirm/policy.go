package confirm

import (
	"context"
	"encoding/json"

	"github.com/cetpgen/cetpgen/runtime/provider"
)

// OnlyAlways is a provider.ConfirmPolicy that asks for no provider_policy
// tool: only the tools whose confirmation annotation is always (which the
// engine always confirms) reach the Confirmer. Use it when the
// Provider's own rules see no added risk in its provider_policy tools.
func OnlyAlways(context.Context, provider.Caller, provider.ToolInfo, json.RawMessage) bool {
	return false
}

var _ provider.ConfirmPolicy = OnlyAlways
