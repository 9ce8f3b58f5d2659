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
		Long:      "meta-schema prints the JSON Schema of provider.yaml or of tool files, as embedded in cetpgen.\nWith --write DIR it writes both into DIR, for editors: point a spec's first line at them with\n# yaml-language-server: $schema=<DIR>/provider.schema.json",
		ValidArgs: []string{"provider", "tool"},
		Args:      cobra.MatchAll(cobra.MaximumNArgs(1), cobra.OnlyValidArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if write != "" {
				if err := writeMetaSchemas(write); err != nil {
					return failure(err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n%s\n", filepath.Join(write, "provider.schema.json"), filepath.Join(write, "tool.schema.json"))
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
	cmd.Flags().StringVar(&write, "write", "", "write both meta-schemas into this directory")
	return cmd
}
