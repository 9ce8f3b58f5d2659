package cli

import (
	_ "embed"
	"errors"

	rtcatalog "github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// The catalog of cetpgen's own commands, generated from the reviewed
// sources in catalog/ by `go test ./gen/cli -run TestSchemaCatalog -update`.
var (
	//go:embed catalog/schema_catalog.json
	schemaCatalog []byte
	//go:embed catalog/schema_catalog.index.json
	schemaCatalogIndex []byte

	openSchemaCatalog = rtcatalog.Lazy(schemaCatalog, schemaCatalogIndex)
)

// catalogVocabulary is the line of `cetpgen schema --help` that maps the
// catalog's words (those of the dws Agent schema) to a spec's annotations.
const catalogVocabulary = "Catalog words, from a spec's annotations: risk: medium is the spec's moderate; confirmation: user_required is provider_policy or always (not_required is never); effect: destructive is delete, transaction or destructive: true; interface_mode: mcp is a pinned remote tool (every CETP tool), local runs in the binary itself, composite combines several."

// newSchema is `cetpgen schema`: the Agent schema of cetpgen's commands. A
// failed query prints its JSON error on stderr and exits 2.
func newSchema() *cobra.Command {
	cmd := rtcatalog.NewCommand(openSchemaCatalog)
	cmd.Short = "Print the Agent schema of cetpgen's own commands"
	cmd.Long += "\n\n" + catalogVocabulary
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		err := run(c, args)
		var qe *rtcatalog.QueryError
		if errors.As(err, &qe) {
			return &exitError{code: ExitUsage}
		}
		if err != nil {
			return failure(err)
		}
		return nil
	}
	return cmd
}
