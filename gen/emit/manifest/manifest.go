// Package manifest renders a Provider's Android manifest fragments from
// templates/android: the Provider side (the discovery <service> with its
// meta-data, the exported <provider> guarded by the ClawSeed permission, and
// the <permission> declaration) and a Consumer-side snippet (<queries> and
// <uses-permission>). The version meta-data follow CETP v2 §2.1: a
// dual-stack Provider keeps version=1 beside versions="1,2"; a v2-only one
// declares version=2 and versions="2". Every value is XML-escaped.
package manifest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path"
	"strconv"
	"strings"
	"text/template"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/templates"
)

// Dir is the manifest target's directory under the output root.
const Dir = "android"

// tmpl holds the parsed XML templates.
var tmpl = template.Must(template.New("android").ParseFS(templates.FS, "android/*.tmpl"))

// view is what both templates render; every field is already escaped.
type view struct {
	Header          string
	ProviderComment string
	VersionsComment string
	Service         string
	Provider        string
	Authority       string
	Package         string
	Version         string
	Versions        string
}

// Generate renders the manifest fragments of one Provider under
// android/<slug>/.
func Generate(p *ir.Provider) ([]emit.File, error) {
	v := newView(p)
	var files []emit.File
	for _, f := range [][2]string{{"provider.xml.tmpl", "AndroidManifest.xml"}, {"consumer.xml.tmpl", "consumer-queries.xml"}} {
		var buf bytes.Buffer
		if err := tmpl.ExecuteTemplate(&buf, f[0], v); err != nil {
			return nil, fmt.Errorf("render %s: %w", f[0], err)
		}
		files = append(files, emit.File{Path: path.Join(Dir, p.Slug, f[1]), Data: buf.Bytes()})
	}
	return files, nil
}

// newView prepares the escaped values of a Provider.
func newView(p *ir.Provider) view {
	version, versions := Versions(p)
	return view{
		Header:          header(p.File),
		ProviderComment: comment(p.Name + " (" + p.ID + ")"),
		VersionsComment: comment(versions),
		Service:         attr(p.Kotlin.QualifiedService),
		Provider:        attr(p.Kotlin.QualifiedClass),
		Authority:       attr(p.Android.Authority),
		Package:         attr(p.Android.Package),
		Version:         attr(version),
		Versions:        attr(versions),
	}
}

// Versions returns the values of the com.clawseed.tools.version and
// com.clawseed.tools.versions meta-data: "1" and "1,2" for a dual-stack
// Provider, else the highest version and the comma-separated set.
func Versions(p *ir.Provider) (version, versions string) {
	var all []string
	for _, v := range p.Versions {
		all = append(all, strconv.Itoa(v))
	}
	if len(all) == 0 {
		return "2", "2"
	}
	if p.DualStack() {
		return "1", strings.Join(all, ",")
	}
	return all[len(all)-1], strings.Join(all, ",")
}

// header returns the generated-file header as XML comments.
func header(source string) string {
	var lines []string
	for _, l := range emit.HeaderLines(source) {
		lines = append(lines, "<!-- "+comment(l)+" -->")
	}
	return strings.Join(lines, "\n")
}

// attr escapes s for a double-quoted XML attribute value.
func attr(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// comment makes s safe inside an XML comment: escaped, with no "--" and
// no trailing "-".
func comment(s string) string {
	s = attr(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "- -")
	}
	return strings.TrimSuffix(s, "-")
}
