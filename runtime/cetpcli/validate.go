package cetpcli

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// FlagName is the pattern of a flag name: lowercase words joined by
// single hyphens.
var FlagName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// builtins are the root's own commands, which no product may shadow.
var builtins = []string{"completion", "help", "schema"}

// Validate checks the table: every path lies under the product, no path
// repeats or is the prefix of another (a leaf cannot be a group), and
// every flag is well named, unique and of a known kind.
func Validate(app *App) error {
	var errs []error
	if app.Name == "" || app.Name == app.Product || slices.Contains(builtins, app.Product) || app.Product == "" {
		errs = append(errs, fmt.Errorf("root %q and product %q must be distinct, non-empty and not %s", app.Name, app.Product, strings.Join(builtins, ", ")))
	}
	errs = append(errs, checkPaths(app)...)
	for i := range app.Commands {
		if err := checkFlags(&app.Commands[i]); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", app.Commands[i].Path, err))
		}
	}
	return errors.Join(errs...)
}

// checkPaths checks every primary path and alias.
func checkPaths(app *App) []error {
	var errs []error
	owner := map[string]string{}
	for _, c := range app.Commands {
		for _, p := range append([]string{c.Path}, c.Aliases...) {
			w := strings.Fields(p)
			if strings.Join(w, " ") != p || len(w) < 2 || w[0] != app.Product {
				errs = append(errs, fmt.Errorf("tool %s: path %q must be the product %q and at least one more word, single-spaced", c.Tool, p, app.Product))
			}
			if prev, dup := owner[p]; dup {
				errs = append(errs, fmt.Errorf("tool %s: path %q is already the path of tool %s", c.Tool, p, prev))
			}
			owner[p] = c.Tool
		}
	}
	return append(errs, prefixConflicts(owner)...)
}

// prefixConflicts reports a path that is also a group of another path.
func prefixConflicts(owner map[string]string) []error {
	paths := make([]string, 0, len(owner))
	for p := range owner {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var errs []error
	for i := 0; i+1 < len(paths); i++ {
		if strings.HasPrefix(paths[i+1], paths[i]+" ") {
			errs = append(errs, fmt.Errorf("tool %s: path %q is a group of %q (tool %s); a command cannot be both", owner[paths[i]], paths[i], paths[i+1], owner[paths[i+1]]))
		}
	}
	return errs
}

// checkFlags checks the flags of one command.
func checkFlags(c *Command) error {
	names, props := map[string]bool{}, map[string]bool{}
	for _, f := range c.Flags {
		switch {
		case !FlagName.MatchString(f.Name) || slices.Contains(ReservedFlags, f.Name):
			return fmt.Errorf("flag name %q is not allowed", f.Name)
		case names[f.Name] || props[f.Property]:
			return fmt.Errorf("flag --%s or property %q appears twice", f.Name, f.Property)
		case f.Kind == Enum && len(f.Enum) == 0:
			return fmt.Errorf("enum flag --%s has no values", f.Name)
		case !knownKind(f.Kind):
			return fmt.Errorf("flag --%s has the unknown kind %q", f.Name, f.Kind)
		}
		if err := f.Check(f.Default); f.Default != "" && err != nil {
			return fmt.Errorf("default of --%s: %w", f.Name, err)
		}
		names[f.Name], props[f.Property] = true, true
	}
	return nil
}
