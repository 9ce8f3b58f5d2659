package importer

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// javaNameRE is a legal Android package (schema/provider.schema.json).
var javaNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)

// productRE is a legal CLI product.
var productRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`)

// checkOptions reports options that cannot make a valid spec.
func checkOptions(o Options) error {
	if p := o.product(); !productRE.MatchString(p) {
		return fmt.Errorf("product %q is not a CLI product (lowercase letters, digits and '-', starting with a letter); pass --product", p)
	}
	if o.Package != "" && !javaNameRE.MatchString(o.Package) {
		return fmt.Errorf("package %q is not an Android package name (two or more dot-separated Java identifiers)", o.Package)
	}
	return nil
}

// scopeNames are the read and write scope of a product.
func scopeNames(product string) (read, write string) { return product + ".read", product + ".write" }

// providerFile renders provider.yaml: identity from the options or
// marked placeholders, v2 only, no optional capabilities, the protocol's
// minimum limits, and the read and write scopes the tools use.
func providerFile(o Options, kind string, usedRead, usedWrite bool) (emit.File, diag.List, error) {
	c := comments{}
	product := o.product()
	pkg := o.Package
	if pkg == "" {
		pkg = "com.example." + strings.ReplaceAll(product, "-", "_")
		c.add("/provider/id", markPlaceholder, "the stable provider_id: the Android package, or a name under it (CETP v2 §3.1)")
		c.add("/android/package", markPlaceholder, "the Android application id of the app that serves these tools")
		c.add("/android/authority", markPlaceholder, "the authority of the app's ClawSeed ContentProvider")
	} else {
		c.add("/android/authority", markGuess, "the ClawSeed convention <package>.clawseed.tools")
	}
	name := o.Name
	if name == "" {
		name = humanize(strings.ReplaceAll(product, "-", " "))
		c.add("/provider/name", markPlaceholder, "the name users know the app by")
	}
	c.add("/provider/description", markPlaceholder, "what the Provider offers, in a sentence")
	c.add("/versions", markNote, "v2 only; [1, 2] also serves CETP v1's read-only subset")
	c.add("/scopes", markPlaceholder, "the %s states no scopes; these two split the tools into reading and changing. Name, describe and rate (sensitivity) what the app really guards", kind)

	root := newObject()
	root.set("cetpgen", jsonNumber(1))
	prov := newObject()
	prov.set("id", pkg)
	prov.set("name", name)
	prov.set("description", fmt.Sprintf("Tools imported from %s %s.", kind, o.Source))
	root.set("provider", prov)
	android := newObject()
	android.set("package", pkg)
	android.set("authority", pkg+".clawseed.tools")
	root.set("android", android)
	root.set("versions", []any{jsonNumber(2)})
	read, write := scopeNames(product)
	var scopes []any
	if usedRead {
		scopes = append(scopes, scopeValue(read, "Read "+name+" data", "See what the read-only tools return.", protocol.AccessRead))
	}
	if usedWrite {
		scopes = append(scopes, scopeValue(write, "Change "+name+" data", "Create, change and delete through the other tools.", protocol.AccessWrite))
	}
	root.set("scopes", scopes)
	cli := newObject()
	cli.set("product", product)
	root.set("cli", cli)

	n := node(root)
	attach(n, c)
	data, err := encode([]string{fmt.Sprintf("Imported by cetpgen import from %s.", o.Source),
		"Replace every PLACEHOLDER and review every GUESS here and in tools/ before shipping."}, n)
	if err != nil {
		return emit.File{}, nil, err
	}
	doc, l := spec.Parse(o.displayPath(spec.ProviderFile), spec.ProviderFile, data)
	if doc == nil || l.HasErrors() {
		return emit.File{}, nil, fmt.Errorf("importer: the rendered provider.yaml does not load: %v", l)
	}
	return emit.File{Path: spec.ProviderFile, Data: data}, commentDiags(doc, c, nil), nil
}

func scopeValue(name, title, description string, access protocol.Access) *object {
	s := newObject()
	s.set("name", name)
	s.set("title", title)
	s.set("description", description)
	s.set("access", string(access))
	s.set("sensitivity", string(protocol.SensitivityOther))
	return s
}
