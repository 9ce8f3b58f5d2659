package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/importer"
	"github.com/spf13/cobra"
)

// importOptions are the flags of cetpgen import mcp and import openapi.
type importOptions struct {
	out, product, pkg, name string
	format, warnings        string
}

// importFunc is one source format: it turns the input into spec files.
type importFunc func(data []byte, o importer.Options) (*importer.Result, error)

func newImport() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Write a spec directory from an MCP tools/list result or an OpenAPI document",
		Long: "import turns tool descriptions that already exist into a Provider spec directory: provider.yaml\n" +
			"with marked placeholders and one tools/<name>.yaml per tool. Every value it had to choose carries\n" +
			"a # GUESS or # PLACEHOLDER comment and is listed; the result is validated at once.",
	}
	cmd.AddCommand(
		newImportFormat("mcp FILE|-", "Import the tools of an MCP server's tools/list result (JSON; - reads standard input)", importer.MCP),
		newImportFormat("openapi FILE|-", "Import the operations of an OpenAPI 3.0 or 3.1 document (JSON or YAML) as tools", importer.OpenAPI),
	)
	return cmd
}

func newImportFormat(use, short string, run importFunc) *cobra.Command {
	var o importOptions
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + ".\n\nThe output directory (--out) must not exist or be empty; nothing is written when the input\n" +
			"cannot be imported faithfully (every such error is printed at its line and column). After writing,\n" +
			"the spec is validated; the command exits 0 when it is valid, 1 when a person must still decide\n" +
			"something to make it valid (the diagnostics say what), 2 on usage or I/O errors.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runImport(cmd, args[0], o, run) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "spec directory to write (required; must not exist or be empty)")
	f.StringVar(&o.product, "product", "", "CLI product and scope prefix (default: the slug of --out)")
	f.StringVar(&o.pkg, "package", "", "Android package and provider id (default: a marked placeholder, com.example.<product>)")
	f.StringVar(&o.name, "name", "", "the Provider's display name (default: a marked placeholder)")
	addFormatFlag(cmd, &o.format)
	addWarningsFlag(cmd, &o.warnings, warningsSummary)
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func runImport(cmd *cobra.Command, file string, o importOptions, run importFunc) error {
	if err := checkFormat(o.format); err != nil {
		return err
	}
	if err := checkWarnings(o.warnings); err != nil {
		return err
	}
	if err := checkOutDir(o.out); err != nil {
		return failure(err)
	}
	data, name, err := readInput(cmd.InOrStdin(), file)
	if err != nil {
		return failure(err)
	}
	res, err := run(data, importer.Options{Dir: o.out, Source: name, Product: o.product, Package: o.pkg, Name: o.name})
	if err != nil {
		return failure(err)
	}
	// Diagnostics go where validate's go: text to stderr, json and github
	// to stdout; the summary for a person stays on stderr.
	diags := diagnosticsStream(cmd, o.format)
	if res.Diags.HasErrors() {
		if err := printGrouped(diags, res.Diags, o.format, o.warnings); err != nil {
			return failure(err)
		}
		return invalid()
	}
	if err := writeSpecDir(o.out, res); err != nil {
		return failure(err)
	}
	_, checked, err := gen.Check(gen.OSSource, []string{o.out})
	if err != nil {
		return failure(err)
	}
	all := append(res.Diags, checked...)
	if err := printGrouped(diags, all, o.format, o.warnings); err != nil {
		return failure(err)
	}
	if o.format == "text" {
		printImportSummary(cmd.ErrOrStderr(), o.out, res, all)
	}
	if all.HasErrors() {
		return invalid()
	}
	return nil
}

// printImportSummary says what was written and what a person must still
// do.
func printImportSummary(w io.Writer, dir string, res *importer.Result, all diag.List) {
	count := map[string]int{}
	for _, d := range all {
		count[d.Rule]++
	}
	fmt.Fprintf(w, "imported %d tool(s) into %s: %d renamed, %d placeholder(s) to replace, %d guess(es) to review (grep -rn 'PLACEHOLDER\\|GUESS' %s)\n",
		res.Tools, dir, count[importer.RuleRenamed], count[importer.RulePlaceholder], count[importer.RuleGuess]+count[importer.RuleOpenOutput], dir)
	if all.HasErrors() {
		fmt.Fprintf(w, "the spec is not valid yet: fix the errors above, then run cetpgen validate %s\n", dir)
		return
	}
	fmt.Fprintf(w, "the spec is valid; once reviewed: cetpgen generate %s\n", dir)
}

// checkOutDir refuses an output directory that holds anything: an import
// never overwrites a spec somebody may have edited.
func checkOutDir(dir string) error {
	if dir == "" {
		return errors.New("--out is required")
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty; import writes a new spec directory and never overwrites one", dir)
	}
	return nil
}

// readInput reads file, or standard input for "-", and returns the name
// diagnostics use for it.
func readInput(stdin io.Reader, file string) ([]byte, string, error) {
	limit := int64(importer.MaxInputBytes) + 1
	if file == "-" {
		data, err := io.ReadAll(io.LimitReader(stdin, limit))
		return data, "<stdin>", err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit))
	return data, file, err
}

// writeSpecDir writes the result into a fresh directory beside dir and
// renames it into place, so a failed write leaves nothing behind.
func writeSpecDir(dir string, res *importer.Result) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".import-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, f := range res.Files {
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Remove(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("replace the empty %s: %w", dir, err)
	}
	return os.Rename(tmp, strings.TrimSuffix(dir, string(filepath.Separator)))
}
