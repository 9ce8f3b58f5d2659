package cli

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// SocketEnv is the environment variable that holds the default --socket
// of every generated CLI.
const SocketEnv = "CETP_SOCKET"

// RootName is the root command (and binary) name of the CLI of p:
// "cetp-" and the spec's slug, so that it never equals the product.
func RootName(p *ir.Provider) string { return "cetp-" + p.Slug }

// Canonical is the catalog's canonical path of tool t: the product, a dot
// and the tool name.
func Canonical(p *ir.Provider, t *ir.Tool) string { return p.CLIProduct + "." + t.Name }

// CLIPath is the command path of t, as the IR resolved it: its cli.path,
// else the product and the tool name as one word ("list_alerts" ->
// "alert list-alerts").
func CLIPath(p *ir.Provider, t *ir.Tool) string { return t.CLIPath }

// BuildApp derives the CLI's data table from the IR and validates it.
func BuildApp(p *ir.Provider) (*cetpcli.App, error) {
	app := &cetpcli.App{
		Name: RootName(p), Short: "Call the tools of " + oneLine(p.Name) + " through CETP v2",
		Long:    rootLong(p),
		Product: p.CLIProduct, ProductShort: oneLine(p.Name),
		ProviderID: p.ID, Revision: p.Revision, SocketEnv: SocketEnv,
	}
	for _, t := range p.Tools {
		app.Commands = append(app.Commands, command(p, t))
	}
	if err := cetpcli.Validate(app); err != nil {
		return nil, fmt.Errorf("catalog: %s: %w", p.Dir, err)
	}
	return app, nil
}

// rootLong is the root command's help.
func rootLong(p *ir.Provider) string {
	return fmt.Sprintf("%s calls the tools of %s (provider %s, tool set revision %s) as a CETP v2 Consumer "+
		"over the Provider's Unix socket (--socket, default $%s) and prints each result as JSON.\n"+
		"`%s schema` describes every command for agents.", RootName(p), oneLine(p.Name), p.ID, p.Revision, SocketEnv, RootName(p))
}

// command is the leaf of tool t.
func command(p *ir.Provider, t *ir.Tool) cetpcli.Command {
	c := cetpcli.Command{Path: CLIPath(p, t), Canonical: Canonical(p, t), Tool: t.Name,
		Short: oneLine(t.Title), Long: strings.TrimSpace(t.Description)}
	if t.CLI != nil {
		c.Aliases = slices.Clone(t.CLI.Aliases)
	}
	for _, pr := range params(t) {
		if pr.flag != nil {
			c.Flags = append(c.Flags, *pr.flag)
		}
		if pr.prop.Required {
			c.Required = append(c.Required, pr.prop.Name)
		}
	}
	sort.Slice(c.Flags, func(i, j int) bool { return c.Flags[i].Name < c.Flags[j].Name })
	return c
}

// oneLine collapses runs of white space, newlines included.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
