package catalog

import (
	"fmt"
	"sort"
	"strings"
)

// checkCompleteness is the reverse gate: every public runnable leaf is
// covered by a public bound command (primary or alias) or by an exact
// exclusion; every exclusion names an uncovered public runnable leaf.
func checkCompleteness(b *BoundRegistry) error {
	if err := checkExclusions(b.Exclusions); err != nil {
		return err
	}
	covered := coveredPaths(b)
	excluded := map[string]string{}
	for _, x := range b.Exclusions {
		excluded[x.CLIPath] = x.Reason
	}
	var problems []string
	leaves := map[string]bool{}
	for _, p := range PublicLeaves(b.Root, b.Builtins) {
		leaves[p] = true
		if !covered[p] && excluded[p] == "" {
			problems = append(problems, fmt.Sprintf("public runnable leaf %q is neither in the registry nor excluded", p))
		}
	}
	problems = append(problems, exclusionProblems(b, leaves, covered)...)
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("completeness: %s", strings.Join(problems, "; "))
	}
	return nil
}

func coveredPaths(b *BoundRegistry) map[string]bool {
	covered := map[string]bool{}
	for _, c := range b.Commands {
		if c.Spec.Visibility != Public {
			continue
		}
		covered[c.Spec.CLIPath] = true
		for _, a := range c.Spec.Aliases {
			covered[a] = true
		}
	}
	return covered
}

func exclusionProblems(b *BoundRegistry, leaves, covered map[string]bool) []string {
	var out []string
	for _, x := range b.Exclusions {
		switch {
		case b.excludesBuiltin(x.CLIPath):
			// Cobra's own help and completion commands are outside the
			// surface; excluding them is redundant and harmless.
		case covered[x.CLIPath]:
			out = append(out, fmt.Sprintf("stale exclusion %q: the path is in the registry", x.CLIPath))
		case !leaves[x.CLIPath]:
			out = append(out, exclusionMisfit(b, x.CLIPath))
		}
	}
	return out
}

// exclusionMisfit explains an exclusion that names no public runnable leaf:
// a prefix of leaves (not allowed), a hidden command, or nothing.
func exclusionMisfit(b *BoundRegistry, p string) string {
	r, err := resolvePath(b.Root, p)
	switch {
	case err != nil:
		return fmt.Sprintf("exclusion %q names no command", p)
	case len(r.cmd.Commands()) > 0:
		return fmt.Sprintf("exclusion %q is a prefix of other commands; exclude exact leaves only", p)
	case r.usedAlias:
		return fmt.Sprintf("exclusion %q goes through a cobra alias; name the command", p)
	}
	return fmt.Sprintf("exclusion %q names a hidden or non-runnable command", p)
}

// excludesBuiltin reports whether p names one of the commands Cobra added.
func (b *BoundRegistry) excludesBuiltin(p string) bool {
	r, err := resolvePath(b.Root, p)
	return err == nil && b.Builtins[r.cmd]
}
