package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// ManualAddition is a reviewed command merged into the effective registry:
// it must name an existing public runnable leaf exactly, with a reason.
type ManualAddition struct {
	CanonicalPath string `json:"canonical_path"`
	CLIPath       string `json:"cli_path"`
	Reason        string `json:"reason"`
	Reviewed      bool   `json:"reviewed"`
}

// Exclusion is an exact, reviewed, reasoned exclusion of one public
// runnable leaf from the catalog.
type Exclusion struct {
	CLIPath  string
	Group    string
	Reason   string
	Reviewed bool
}

// EffectiveRegistry is the registry after manual additions: the only
// source of identity from the binder on.
type EffectiveRegistry struct {
	Commands    []CommandSpec // sorted by canonical path
	ByCanonical map[string]*CommandSpec
	ByPath      map[string]*CommandSpec // primary paths and aliases
}

// hasWildcard reports whether a path tries to match more than itself.
func hasWildcard(p string) bool { return strings.ContainsAny(p, "*?[]") }

// exactPath checks that p is one exact, normalized CLI path.
func exactPath(p string) error {
	if hasWildcard(p) || p != strings.Join(strings.Fields(p), " ") || p == "" || strings.Contains(p, "--") {
		return fmt.Errorf("path %q is not one exact CLI path (no wildcards, flags or extra spaces)", p)
	}
	return nil
}

// NewEffectiveRegistry merges the reviewed additions into the registry;
// any identity, path or alias conflict fails. Registry entries are
// normalized here too (product, source, default visibility), so a
// generator may build a CommandRegistry in memory with only canonical
// paths, CLI paths and aliases.
func NewEffectiveRegistry(r *CommandRegistry, additions []ManualAddition) (*EffectiveRegistry, error) {
	e := &EffectiveRegistry{ByCanonical: map[string]*CommandSpec{}, ByPath: map[string]*CommandSpec{}}
	var cmds []CommandSpec
	for _, p := range r.Products {
		for _, c := range p.Tools {
			c.Aliases = append([]string(nil), c.Aliases...)
			if err := c.normalize(p.ID, SourceRegistry); err != nil {
				return nil, fmt.Errorf("command registry: %w", err)
			}
			cmds = append(cmds, c)
		}
	}
	for _, a := range additions {
		c, err := additionSpec(a)
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, c)
	}
	sort.SliceStable(cmds, func(i, j int) bool { return cmds[i].CanonicalPath < cmds[j].CanonicalPath })
	e.Commands = cmds
	return e, e.index()
}

func additionSpec(a ManualAddition) (CommandSpec, error) {
	if !a.Reviewed || strings.TrimSpace(a.Reason) == "" {
		return CommandSpec{}, fmt.Errorf("manual addition %q must be reviewed and carry a reason", a.CLIPath)
	}
	if err := exactPath(a.CLIPath); err != nil {
		return CommandSpec{}, fmt.Errorf("manual addition: %w", err)
	}
	product, _, ok := strings.Cut(a.CanonicalPath, ".")
	if !ok || product == "" {
		return CommandSpec{}, fmt.Errorf("manual addition %q: canonical path %q has no product prefix", a.CLIPath, a.CanonicalPath)
	}
	c := CommandSpec{CanonicalPath: a.CanonicalPath, CLIPath: a.CLIPath, ReviewReason: a.Reason}
	return c, c.normalize(product, SourceManual)
}

// index fills the maps, failing on any duplicate identity or path.
func (e *EffectiveRegistry) index() error {
	for i := range e.Commands {
		c := &e.Commands[i]
		if prev, dup := e.ByCanonical[c.CanonicalPath]; dup {
			return fmt.Errorf("canonical path %q is claimed by %q and %q", c.CanonicalPath, prev.CLIPath, c.CLIPath)
		}
		e.ByCanonical[c.CanonicalPath] = c
		for _, p := range append([]string{c.CLIPath}, c.Aliases...) {
			if err := exactPath(p); err != nil {
				return fmt.Errorf("%s: %w", c.CanonicalPath, err)
			}
			if prev, dup := e.ByPath[p]; dup {
				return fmt.Errorf("path collision: %q is claimed by %s and %s", p, prev.CanonicalPath, c.CanonicalPath)
			}
			e.ByPath[p] = c
		}
	}
	return nil
}

// Hash is the semantic registry hash (surface_hash): formatting, order and
// omitted defaults do not change it; canonical path, product, source
// product, primary path, alias set and visibility do.
func (e *EffectiveRegistry) Hash() string {
	rows := make([]string, 0, len(e.Commands))
	for _, c := range e.Commands {
		aliases := append([]string(nil), c.Aliases...)
		sort.Strings(aliases)
		rows = append(rows, strings.Join([]string{c.ProductID, c.CanonicalPath, c.SourceProductID,
			c.CLIPath, strings.Join(aliases, "\x00"), c.Visibility}, "\x00"))
	}
	sort.Strings(rows)
	sum := sha256.Sum256([]byte(strings.Join(rows, "\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// checkExclusions rejects inexact, unreviewed, unreasoned or duplicate
// exclusions.
func checkExclusions(ex []Exclusion) error {
	seen := map[string]bool{}
	for _, x := range ex {
		if err := exactPath(x.CLIPath); err != nil {
			return fmt.Errorf("exclusion: %w", err)
		}
		if !x.Reviewed || strings.TrimSpace(x.Reason) == "" {
			return fmt.Errorf("exclusion %q must be reviewed and carry a reason", x.CLIPath)
		}
		if seen[x.CLIPath] {
			return fmt.Errorf("exclusion %q is listed twice", x.CLIPath)
		}
		seen[x.CLIPath] = true
	}
	return nil
}
