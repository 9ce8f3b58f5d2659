package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/spf13/cobra"
)

// File names of a catalog directory: reviewed inputs, then the two
// generated outputs, which are never read back as inputs.
const (
	RegistryFile       = "schema_command_registry.json"
	RegistrySchemaFile = "schema_command_registry.schema.json"
	ExclusionsFile     = "schema_command_exclusions.json"
	AdditionsFile      = "schema_manual_additions.json"
	BindingsFile       = "schema_parameter_bindings.json"
	InterfacesFile     = "schema_interfaces.json"
	MetadataDir        = "metadata"
	SelectionDir       = "selection"
	CatalogFile        = "schema_catalog.json"
	IndexFile          = "schema_catalog.index.json"
)

// exclusionsFile is the JSON form of the exclusions: reasoned groups of
// exact paths.
type exclusionsFile struct {
	Version int `json:"version"`
	Groups  []struct {
		ID       string   `json:"id"`
		Reason   string   `json:"reason"`
		Reviewed bool     `json:"reviewed"`
		Commands []string `json:"commands"`
	} `json:"groups"`
}

type additionsFile struct {
	Version  int              `json:"version"`
	Commands []ManualAddition `json:"commands"`
}

// LoadDir reads the reviewed sources of a catalog directory. root builds
// the live cobra tree. Missing optional files mean no such source.
func LoadDir(dir string, root func() *cobra.Command) (*Input, error) {
	name := root().Name()
	in := &Input{Root: root, RegistryRef: RegistryFile}
	data, err := os.ReadFile(filepath.Join(dir, RegistryFile))
	if err != nil {
		return nil, err
	}
	if err := checkSchemaFile(dir, name, data); err != nil {
		return nil, err
	}
	if in.Registry, err = DecodeRegistry(data, name); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, RegistryFile), err)
	}
	return in, firstErr(in.loadExclusions(dir), in.loadAdditions(dir), in.loadOptional(dir),
		in.loadMetadata(dir), in.loadSelection(dir))
}

// checkSchemaFile reads the committed registry JSON Schema, a reviewed
// input: either exactly the one this library writes for root, or the
// CLI's own, accepted when compatible (CheckRegistrySchema); the registry
// must then also be valid against it.
func checkSchemaFile(dir, root string, registry []byte) error {
	got, err := os.ReadFile(filepath.Join(dir, RegistrySchemaFile))
	if err != nil {
		return err
	}
	sch, err := registrySchemaFor(got, root)
	if err != nil || sch == nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(registry))
	if err == nil {
		err = sch.Validate(inst)
	}
	if err != nil {
		return fmt.Errorf("%s does not match the reviewed %s: %w", RegistryFile, RegistrySchemaFile, err)
	}
	return nil
}

// readOptional strictly decodes dir/name into v; a missing file is fine.
func readOptional(dir, name string, v any) (bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err == nil {
		err = catalog.DecodeStrict(data, v)
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", name, err)
	}
	return true, nil
}

func (in *Input) loadExclusions(dir string) error {
	var f exclusionsFile
	if _, err := readOptional(dir, ExclusionsFile, &f); err != nil {
		return err
	}
	for _, g := range f.Groups {
		for _, c := range g.Commands {
			in.Exclusions = append(in.Exclusions, Exclusion{CLIPath: c, Group: g.ID, Reason: g.Reason, Reviewed: g.Reviewed})
		}
	}
	return nil
}

func (in *Input) loadAdditions(dir string) error {
	var f additionsFile
	_, err := readOptional(dir, AdditionsFile, &f)
	in.Additions = f.Commands
	return err
}

func (in *Input) loadOptional(dir string) error {
	var b Bindings
	ok, err := readOptional(dir, BindingsFile, &b)
	if ok {
		b.Ref, in.Bindings = BindingsFile, &b
	}
	var f InterfaceFacts
	ok2, err2 := readOptional(dir, InterfacesFile, &f)
	if ok2 {
		f.Ref, in.Interfaces = InterfacesFile, &f
	}
	return firstErr(err, err2)
}

// jsonFiles lists dir/sub/*.json in order.
func jsonFiles(dir, sub string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, sub, "*.json"))
	sort.Strings(files)
	return files, err
}

func (in *Input) loadMetadata(dir string) error {
	files, err := jsonFiles(dir, MetadataDir)
	for _, f := range files {
		var m MetadataSource
		if _, err := readOptional(filepath.Dir(f), filepath.Base(f), &m); err != nil {
			return err
		}
		m.Ref = filepath.ToSlash(filepath.Join(MetadataDir, filepath.Base(f)))
		in.Metadata = append(in.Metadata, m)
	}
	return err
}

func (in *Input) loadSelection(dir string) error {
	files, err := jsonFiles(dir, SelectionDir)
	for _, f := range files {
		var s SelectionSource
		if _, err := readOptional(filepath.Dir(f), filepath.Base(f), &s); err != nil {
			return err
		}
		s.Ref = filepath.ToSlash(filepath.Join(SelectionDir, filepath.Base(f)))
		in.Selection = append(in.Selection, s)
	}
	return err
}
