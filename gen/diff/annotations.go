package diff

import (
	"slices"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// annotations compares the safety annotations of one tool.
func (c *comparison) annotations(old, new *ir.Tool) {
	c.effect(old, new)
	c.risk(old, new)
	c.flags(old, new)
	c.confirmation(old, new)
	c.execution(old, new)
}

// effect compares the effect, and what a write effect means for CETP v1.
func (c *comparison) effect(old, new *ir.Tool) {
	oe, ne := old.Annotations.Effect, new.Annotations.Effect
	if oe == ne {
		return
	}
	pos := new.PosOf("/annotations/effect")
	if oe.Writes() {
		c.add("effect-changed", new.Name, pos, "effect changed from %s to %s", oe, ne)
		return
	}
	c.add("effect-write", new.Name, pos, "effect changed from read to %s", ne)
	if c.old.DualStack() {
		c.add("v1-tool-becomes-write", new.Name, pos,
			"CETP v1 Consumers could see %s; with effect %s it is hidden from v1 list_tools", new.Name, ne)
	}
}

// risk compares the risk.
func (c *comparison) risk(old, new *ir.Tool) {
	or, nr := old.Annotations.Risk, new.Annotations.Risk
	pos := new.PosOf("/annotations/risk")
	switch {
	case level(protocol.Risks, nr) > level(protocol.Risks, or):
		c.add("risk-raised", new.Name, pos, "risk raised from %s to %s", or, nr)
	case level(protocol.Risks, nr) < level(protocol.Risks, or):
		c.add("risk-lowered", new.Name, pos, "risk lowered from %s to %s", or, nr)
	}
}

// flags compares destructive, open_world and idempotent.
func (c *comparison) flags(old, new *ir.Tool) {
	oa, na := old.Annotations, new.Annotations
	c.flag(new, "destructive", oa.Destructive, na.Destructive, "destructive-on", "destructive-off")
	c.flag(new, "open_world", oa.OpenWorld, na.OpenWorld, "open-world-on", "open-world-off")
	c.flag(new, "idempotent", oa.Idempotent, na.Idempotent, "idempotent-changed", "idempotent-changed")
}

// flag compares one boolean annotation.
func (c *comparison) flag(new *ir.Tool, name string, old, now bool, on, off string) {
	if old == now {
		return
	}
	id := off
	if now {
		id = on
	}
	c.add(id, new.Name, new.PosOf("/annotations/"+name), "%s turned %s", name, map[bool]string{true: "on", false: "off"}[now])
}

// level is a value's rank in its protocol list, which orders risks and
// confirmation policies from weakest to strongest.
func level[T comparable](order []T, v T) int { return slices.Index(order, v) }

// confirmation compares the confirmation policy.
func (c *comparison) confirmation(old, new *ir.Tool) {
	oc, nc := old.Annotations.Confirmation, new.Annotations.Confirmation
	pos := new.PosOf("/annotations/confirmation")
	switch {
	case level(protocol.Confirmations, nc) < level(protocol.Confirmations, oc):
		c.add("confirmation-weakened", new.Name, pos, "confirmation weakened from %s to %s", oc, nc)
	case level(protocol.Confirmations, nc) > level(protocol.Confirmations, oc):
		c.add("confirmation-strengthened", new.Name, pos, "confirmation strengthened from %s to %s", oc, nc)
	}
}

// execution compares the execution mode.
func (c *comparison) execution(old, new *ir.Tool) {
	oe, ne := old.Annotations.Execution, new.Annotations.Execution
	if oe == ne {
		return
	}
	id := "execution-sync"
	if ne == protocol.ExecSyncOrAsync {
		id = "execution-async"
	}
	c.add(id, new.Name, new.PosOf("/annotations/execution"), "execution changed from %s to %s", oe, ne)
}
