package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/schema"
	"github.com/cetpgen/cetpgen/templates"
	"github.com/spf13/cobra"
)

// initView is the data of the starter spec templates.
type initView struct {
	Package       string
	Title         string
	Slug          string
	SchemaDir     string // the meta-schemas, relative to provider.yaml
	ToolSchemaDir string // the meta-schemas, relative to tools/*.yaml
}

func newInit() *cobra.Command {
	var pkg, schemaDir string
	cmd := &cobra.Command{
		Use:   "init NAME|DIR",
		Short: "Write a new, valid Provider spec directory",
		Long: "init writes DIR/provider.yaml and DIR/tools/get_status.yaml, a small valid spec to edit.\n" +
			"A bare NAME (no slash) stands for specs/NAME, where validate and generate look by default.\n" +
			"Their first lines point editors (yaml-language-server) at the meta-schemas: the nearest\n" +
			"schema/ directory above DIR that holds them, else a copy written to DIR/../.schema/.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := initDir(args[0])
			path, err := runInit(dir, pkg, schemaDir)
			if err != nil {
				return failure(err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), initDone(args[0], path))
			return nil
		},
	}
	cmd.Flags().StringVar(&pkg, "package", "", "Android package and provider id (default com.example.<name>)")
	cmd.Flags().StringVar(&schemaDir, "schema-dir", "", "directory of the meta-schemas for the editor modelines")
	return cmd
}

// initDir is the spec directory init writes: specs/NAME for a bare name,
// else the directory as given.
func initDir(arg string) string {
	if arg != "." && arg != ".." && !strings.ContainsAny(arg, `/\`) {
		return filepath.Join(DefaultSpecDir, arg)
	}
	return arg
}

// initDone is the line init prints: where the spec is and what to run
// next (validate and generate need no argument for a spec under specs/).
func initDone(arg, path string) string {
	if initDir(arg) != arg {
		return fmt.Sprintf("wrote %s; edit it, then run: cetpgen validate && cetpgen generate", filepath.ToSlash(path))
	}
	return fmt.Sprintf("wrote %s; check it with: cetpgen validate %s", path, path)
}

func runInit(dir, pkg, schemaDir string) (string, error) {
	if _, err := os.Stat(dir); err == nil {
		return "", fmt.Errorf("%s already exists; init never overwrites", dir)
	}
	slug := ir.Slug(dir)
	if pkg == "" {
		pkg = "com.example." + strings.ReplaceAll(slug, "-", "")
	}
	schemas, err := locateSchemas(dir, schemaDir)
	if err != nil {
		return "", err
	}
	view, err := newInitView(dir, pkg, slug, schemas)
	if err != nil {
		return "", err
	}
	return dir, writeStarter(dir, view)
}

func newInitView(dir, pkg, slug, schemas string) (initView, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return initView{}, err
	}
	rel, err := filepath.Rel(abs, schemas)
	if err != nil {
		return initView{}, err
	}
	toolRel, err := filepath.Rel(filepath.Join(abs, "tools"), schemas)
	if err != nil {
		return initView{}, err
	}
	return initView{Package: pkg, Title: strings.ToUpper(slug[:1]) + slug[1:], Slug: slug,
		SchemaDir: filepath.ToSlash(rel), ToolSchemaDir: filepath.ToSlash(toolRel)}, nil
}

// locateSchemas finds (or writes) the meta-schemas the modelines point at
// and returns their absolute directory.
func locateSchemas(dir, explicit string) (string, error) {
	if explicit != "" {
		return filepath.Abs(explicit)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "schema", "provider.schema.json")); err == nil {
			return filepath.Join(d, "schema"), nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	target := filepath.Join(filepath.Dir(abs), ".schema")
	return target, writeMetaSchemas(target)
}

func writeStarter(dir string, view initView) error {
	if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
		return err
	}
	files := map[string]string{"provider.yaml": "init/provider.yaml.tmpl", "tools/get_status.yaml": "init/tool.yaml.tmpl"}
	for out, tmpl := range files {
		if err := renderFile(filepath.Join(dir, out), tmpl, view); err != nil {
			return err
		}
	}
	return nil
}

func renderFile(path, name string, view initView) error {
	t, err := template.ParseFS(templates.FS, name)
	if err != nil {
		return fmt.Errorf("template %s: %w", name, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := t.Execute(f, view); err != nil {
		f.Close()
		return fmt.Errorf("render %s: %w", path, err)
	}
	return f.Close()
}

// metaSchemaFiles are the files writeMetaSchemas writes, in order: the
// two meta-schemas and the JSON Schema 2020-12 meta-schema that the tool
// meta-schema applies to input_schema and output_schema by a relative
// $ref, so an editor finds it beside tool.schema.json.
var metaSchemaFiles = []struct {
	name string
	data []byte
}{
	{"provider.schema.json", schema.Provider},
	{"tool.schema.json", schema.Tool},
	{"jsonschema-2020-12.flat.json", schema.JSONSchemaFlat},
}

// writeMetaSchemas writes the embedded meta-schemas into dir, leaving
// existing identical files alone.
func writeMetaSchemas(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range metaSchemaFiles {
		name, data := f.name, f.data
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
			continue
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
