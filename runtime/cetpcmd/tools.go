package cetpcmd

import (
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/spf13/cobra"
)

// maxCell bounds an annotation value shown in the table.
const maxCell = 32

// toolsCmd is `cetp tools`.
func (r *runner) toolsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the tools of a Provider: name, annotations, title",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return r.tools(cmd) },
	}
	cmd.Flags().Bool("json", false, "print the list_tools answer (revision, tools) as JSON")
	return cmd
}

// tools lists the Provider's tools as a table or as JSON.
func (r *runner) tools(cmd *cobra.Command) error {
	ctx, cancel := r.context(cmd)
	defer cancel()
	s, err := r.open(ctx, cmd, consumer.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	list, err := s.c.ListTools(ctx)
	if err != nil {
		return cliout.Exchange("list_tools", err)
	}
	for _, t := range list.Rejected {
		fmt.Fprintf(r.env.Err(), "cetp: tool %s left out: %s\n", cliout.Printable(t.Name), t.Reason)
	}
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON {
		return printValue(cmd.OutOrStdout(), list)
	}
	return writeTable(cmd.OutOrStdout(), s.c.Session(), list)
}

// writeTable writes the Provider's name and revision, then one row per
// tool. The title comes last: its characters may be wide.
func writeTable(w io.Writer, sess *consumer.Session, list *consumer.ToolList) error {
	if sess != nil {
		fmt.Fprintf(w, "%s (%s), revision %s\n", cliout.Printable(sess.ProviderName), cliout.Printable(sess.ProviderID), cliout.Printable(list.Revision))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fields := protocol.AnnotationVocabularies()
	head := []string{"NAME"}
	for _, f := range fields {
		head = append(head, strings.ToUpper(f.Field))
	}
	fmt.Fprintln(tw, strings.Join(append(head, "FLAGS", "TITLE"), "\t"))
	for _, t := range list.Tools {
		row := []string{cliout.Printable(t.Name)}
		for _, f := range fields {
			row = append(row, cell(t.Annotations[f.Field]))
		}
		fmt.Fprintln(tw, strings.Join(append(row, flags(t.Annotations), cliout.Printable(t.Title)), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the tool table: %w", err)
	}
	return nil
}

// cell shows one annotation value, escaped and cut to maxCell runes.
func cell(v any) string {
	if v == nil {
		return "-"
	}
	s := []rune(cliout.Printable(fmt.Sprint(v)))
	if len(s) > maxCell {
		return string(s[:maxCell]) + "…"
	}
	return string(s)
}

// flags names the boolean annotations that are true.
func flags(a map[string]any) string {
	var on []string
	for _, k := range protocol.AnnotationFlags {
		if a[k] == true {
			on = append(on, k)
		}
	}
	if len(on) == 0 {
		return "-"
	}
	return strings.Join(on, ",")
}
