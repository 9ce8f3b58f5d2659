package importer

import (
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// hints are the MCP tool annotations (2025-06-18, 2025-11-25); nil means
// absent, which MCP defines as readOnly false, destructive true,
// idempotent false, openWorld true.
type hints struct {
	readOnly, destructive, idempotent, openWorld *bool
}

// Verbs by the effect a tool whose name starts with them most likely has.
var (
	readVerbs = []string{"get", "list", "read", "search", "find", "fetch", "query", "show", "describe", "view",
		"lookup", "count", "check", "inspect", "retrieve", "browse", "stat", "status", "download", "export", "watch", "preview", "resolve", "validate", "explain", "diff", "compare", "summarize"}
	createVerbs = []string{"create", "add", "new", "insert", "post", "upload", "make", "register", "generate",
		"invite", "fork", "clone", "copy", "send", "schedule", "book", "import", "publish", "submit", "open", "start", "run", "execute", "trigger", "write", "save"}
	updateVerbs = []string{"update", "set", "edit", "modify", "patch", "rename", "move", "change", "replace", "merge",
		"close", "assign", "unassign", "toggle", "enable", "disable", "mark", "approve", "reject", "reply", "label", "tag", "star", "pin", "lock", "unlock", "sync", "reset", "restart", "stop", "resume", "pause"}
	deleteVerbs      = []string{"delete", "remove", "destroy", "drop", "purge", "erase", "wipe", "revoke", "unregister", "uninstall", "truncate", "clear"}
	transactionVerbs = []string{"pay", "transfer", "purchase", "buy", "sell", "checkout", "refund", "charge", "trade", "withdraw", "deposit", "order"}
)

// verbEffect is the effect the words of a CETP tool name suggest, and the
// word that suggested it: the first word found in a verb list ("github_
// create_issue" -> create), else update.
func verbEffect(name string) (effect protocol.Effect, word string) {
	for _, w := range strings.Split(name, "_") {
		switch {
		case slices.Contains(readVerbs, w):
			return protocol.EffectRead, w
		case slices.Contains(createVerbs, w):
			return protocol.EffectCreate, w
		case slices.Contains(deleteVerbs, w):
			return protocol.EffectDelete, w
		case slices.Contains(transactionVerbs, w):
			return protocol.EffectTransaction, w
		case slices.Contains(updateVerbs, w):
			return protocol.EffectUpdate, w
		}
	}
	return protocol.EffectUpdate, ""
}

// mapAnnotations derives the seven CETP annotations of a tool from its
// MCP hints and name. Every value not stated by a hint is a GUESS
// comment; confirmation follows CETP v2 §3.4 (always for delete,
// transaction, destructive or high risk).
func mapAnnotations(name string, h hints, c comments) spec.Annotations {
	var a spec.Annotations
	if h.readOnly != nil && *h.readOnly {
		a = readAnnotations(h, c)
	} else {
		a = writeAnnotations(name, h, c)
	}
	if h.openWorld != nil {
		a.OpenWorld = *h.openWorld
	} else {
		a.OpenWorld = true
		c.add("/annotations/open_world", markGuess, "no openWorldHint; MCP's default is true (the tool may reach systems outside the Provider)")
	}
	a.Confirmation = confirmation(a, c)
	a.Execution = protocol.ExecSync
	return a
}

// confirmation is the policy of a tool with annotations a: always where
// CETP v2 §3.4 requires it (said in a note), never for a read, else
// provider_policy.
func confirmation(a spec.Annotations, c comments) protocol.Confirmation {
	switch reason := protocol.ConfirmationReason(a.Effect, a.Risk, a.Destructive); {
	case reason != "":
		c.add("/annotations/confirmation", markNote, "always, because %s (CETP v2 §3.4 requires it)", reason)
		return protocol.ConfirmAlways
	case a.Effect == protocol.EffectRead:
		return protocol.ConfirmNever
	}
	return protocol.ConfirmProviderPolicy
}

// readAnnotations are the annotations of a tool MCP marks read-only.
func readAnnotations(h hints, c comments) spec.Annotations {
	a := spec.Annotations{Effect: protocol.EffectRead, Risk: protocol.RiskLow, Idempotent: true}
	c.add("/annotations/risk", markGuess, "low, as for any read-only tool; raise it if reading exposes sensitive data")
	if h.destructive != nil && *h.destructive {
		c.add("/annotations/destructive", markNote, "MCP's destructiveHint true was ignored: MCP gives it meaning only when readOnlyHint is false")
	}
	if h.idempotent != nil && !*h.idempotent {
		c.add("/annotations/idempotent", markNote, "MCP's idempotentHint false was ignored: MCP gives it meaning only when readOnlyHint is false, and a read changes nothing")
	}
	return a
}

// writeAnnotations are the annotations of a tool MCP does not mark
// read-only.
func writeAnnotations(name string, h hints, c comments) spec.Annotations {
	var a spec.Annotations
	effect, word := verbEffect(name)
	switch {
	case effect == protocol.EffectRead && h.readOnly == nil:
		a.Effect = protocol.EffectUpdate
		c.add("/annotations/effect", markGuess, "update: the name (%q) reads like a read, but without readOnlyHint MCP assumes the tool changes state; if it only reads, set effect: read, destructive: false, idempotent: true, confirmation: never", word)
	case effect == protocol.EffectRead:
		a.Effect = protocol.EffectUpdate
		c.add("/annotations/effect", markGuess, "update: the name (%q) reads like a read, but readOnlyHint is false", word)
	case word == "":
		a.Effect = protocol.EffectUpdate
		c.add("/annotations/effect", markGuess, "update: no word of the name says what the tool does; choose create, update, delete or transaction")
	default:
		a.Effect = effect
		c.add("/annotations/effect", markGuess, "%s, from the word %q of the name", effect, word)
	}
	if h.destructive != nil {
		a.Destructive = *h.destructive
	} else {
		a.Destructive = true
		c.add("/annotations/destructive", markGuess, "no destructiveHint; MCP's default is true (the tool may destroy data)")
	}
	if h.idempotent != nil {
		a.Idempotent = *h.idempotent
	} else {
		c.add("/annotations/idempotent", markGuess, "no idempotentHint; MCP's default is false")
	}
	a.Risk = protocol.RiskModerate
	if a.Destructive || a.Effect == protocol.EffectDelete || a.Effect == protocol.EffectTransaction {
		a.Risk = protocol.RiskHigh
	}
	c.add("/annotations/risk", markGuess, "%s, from the effect and destructiveness; MCP has no risk hint", a.Risk)
	return a
}

// annotationsValue is a's YAML form, the seven keys in the spec's order.
func annotationsValue(a spec.Annotations) *object {
	o := newObject()
	o.set("effect", string(a.Effect))
	o.set("risk", string(a.Risk))
	o.set("destructive", a.Destructive)
	o.set("idempotent", a.Idempotent)
	o.set("open_world", a.OpenWorld)
	o.set("confirmation", string(a.Confirmation))
	o.set("execution", string(a.Execution))
	return o
}
