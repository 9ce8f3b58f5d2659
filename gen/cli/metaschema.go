package cli

import (
	"fmt"
	"path/filepath"

	"github.com/cetpgen/cetpgen/schema"
	"github.com/spf13/cobra"
)

func newMetaSchema() *cobra.Command {
	var write string
	cmd := &cobra.Command{
		Use:       "meta-schema [provider|tool]",
		Short:     "Print or write the meta-schemas of the spec language",
		Long:      "meta-schema prints the JSON Schema of provider.yaml or of tool files, as embedded in cetpgen.\nWith --write DIR it writes both into DIR, with the JSON Schema 2020-12 meta-schema that\ntool.schema.json applies to input_schema and output_schema, for editors: point a spec's first\nline at them with # yaml-language-server: $schema=<DIR>/provider.schema.json",
		ValidArgs: []string{"provider", "tool"},
		Args:      cobra.MatchAll(cobra.MaximumNArgs(1), cobra.OnlyValidArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if write != "" {
				if err := writeMetaSchemas(write); err != nil {
					return failure(err)
				}
				for _, f := range metaSchemaFiles {
					fmt.Fprintln(cmd.OutOrStdout(), filepath.Join(write, f.name))
				}
				return nil
			}
			if len(args) == 0 {
				return failure(fmt.Errorf("name a meta-schema (provider or tool) or use --write DIR"))
			}
			data := schema.Provider
			if args[0] == "tool" {
				data = schema.Tool
			}
			_, err := cmd.OutOrStdout().Write(data)
			return err
		},
	}
	cmd.Flags().StringVar(&write, "write", "", "write both meta-schemas (and the 2020-12 meta-schema they use) into this directory")
	return cmd
}
