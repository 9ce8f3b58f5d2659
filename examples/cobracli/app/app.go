package app

import (
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// NewRoot builds the notes command tree. open serves the embedded catalog
// to the schema command; the catalog generator passes one that is never
// called.
func NewRoot(open func() (*catalog.Catalog, error)) *cobra.Command {
	root := &cobra.Command{Use: "notes", Short: "Notes kept by a remote notes service", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(noteCmd(), tagCmd(), versionCmd(), catalog.NewCommand(open),
		&cobra.Command{Use: "debug", Short: "Internal diagnostics", Hidden: true, RunE: printArgs})
	return root
}

// printArgs stands in for the real work of every command of the example.
func printArgs(cmd *cobra.Command, args []string) error {
	_, err := fmt.Fprintf(cmd.OutOrStdout(), "%s %v\n", cmd.CommandPath(), args)
	return err
}

func leaf(use, short string) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, RunE: printArgs}
}

func noteCmd() *cobra.Command {
	note := &cobra.Command{Use: "note", Short: "Notes"}
	list := leaf("list", "List notes, newest first")
	list.Aliases = []string{"ls"}
	list.Flags().Int("limit", 20, "maximum number of notes (1-100)")
	list.Flags().String("cursor", "", "page cursor returned by the previous call")
	list.Flags().StringSlice("tag", nil, "only notes with all these tags")
	get := leaf("get", "Show one note")
	get.Flags().String("id", "", "note id")
	_ = get.MarkFlagRequired("id")
	create := leaf("create", "Create a note")
	create.Flags().String("title", "", "note title")
	create.Flags().String("body", "", "note body (Markdown)")
	create.Flags().String("body-file", "", "read the body from this file")
	create.Flags().String("due", "", "due time, RFC 3339")
	_ = create.MarkFlagRequired("title")
	create.MarkFlagsMutuallyExclusive("body", "body-file")
	del := leaf("delete", "Delete a note for good")
	del.Flags().String("id", "", "note id")
	_ = del.MarkFlagRequired("id")
	note.AddCommand(list, get, create, del)
	return note
}

func tagCmd() *cobra.Command {
	tag := &cobra.Command{Use: "tag", Short: "Tags"}
	add := leaf("add", "Tag a note")
	add.Flags().String("id", "", "note id")
	add.Flags().StringSlice("name", nil, "tag names")
	_ = add.MarkFlagRequired("id")
	tag.AddCommand(add)
	return tag
}

func versionCmd() *cobra.Command {
	return leaf("version", "Print the version of notes")
}

// CatalogDir is the catalog directory, relative to examples/cobracli.
const CatalogDir = "catalog"

// GeneratorRoot builds the tree for the catalog generator and its gates;
// its schema command is never run.
func GeneratorRoot() *cobra.Command {
	return NewRoot(func() (*catalog.Catalog, error) { return nil, fmt.Errorf("no catalog while generating") })
}
