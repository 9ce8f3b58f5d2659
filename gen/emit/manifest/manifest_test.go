package manifest_test

import (
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/manifest"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// androidManifest is the part of a manifest the tests read.
type androidManifest struct {
	Permissions []struct {
		Name  string `xml:"name,attr"`
		Level string `xml:"protectionLevel,attr"`
	} `xml:"permission"`
	UsesPermissions []struct {
		Name string `xml:"name,attr"`
	} `xml:"uses-permission"`
	Services []struct {
		Name     string `xml:"name,attr"`
		Exported string `xml:"exported,attr"`
		Actions  []struct {
			Name string `xml:"name,attr"`
		} `xml:"intent-filter>action"`
		MetaData []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"meta-data"`
	} `xml:"application>service"`
	Providers []struct {
		Name        string `xml:"name,attr"`
		Authorities string `xml:"authorities,attr"`
		Exported    string `xml:"exported,attr"`
		Permission  string `xml:"permission,attr"`
	} `xml:"application>provider"`
	Queries struct {
		Actions []struct {
			Name string `xml:"name,attr"`
		} `xml:"intent>action"`
		Packages []struct {
			Name string `xml:"name,attr"`
		} `xml:"package"`
	} `xml:"queries"`
}

// render generates the fragments of one example spec and parses them.
func render(t *testing.T, spec string) (*ir.Provider, map[string]androidManifest) {
	t.Helper()
	ps, diags, err := gen.Check(gen.OSSource, []string{filepath.Join("..", "..", "..", "specs", spec)})
	if err != nil || diags.HasErrors() {
		t.Fatalf("check %s: %v %v", spec, err, diags)
	}
	files, err := manifest.Generate(ps[0])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]androidManifest{}
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "android/"+spec+"/") || !emit.IsGenerated(f.Data) || f.UserOwned {
			t.Errorf("%s: wrong path, marker or ownership", f.Path)
		}
		var m androidManifest
		if err := xml.Unmarshal(f.Data, &m); err != nil {
			t.Fatalf("%s does not parse: %v", f.Path, err)
		}
		out[f.Path[strings.LastIndex(f.Path, "/")+1:]] = m
	}
	return ps[0], out
}

// TestProviderManifest checks the service, provider, permission and
// version meta-data of a dual-stack and a v2-only Provider (CETP v2 §2.1).
func TestProviderManifest(t *testing.T) {
	for spec, versions := range map[string][2]string{"alerts": {"1", "1,2"}, "brokerage": {"2", "2"}} {
		t.Run(spec, func(t *testing.T) {
			p, files := render(t, spec)
			m := files["AndroidManifest.xml"]
			checkPermission(t, m)
			checkService(t, p, m, versions)
			checkProvider(t, p, m)
		})
	}
}

func checkPermission(t *testing.T, m androidManifest) {
	t.Helper()
	if len(m.Permissions) != 1 || m.Permissions[0].Name != "com.clawseed.permission.ACCESS_TOOLS" || m.Permissions[0].Level != "normal" {
		t.Errorf("permission declaration: %+v", m.Permissions)
	}
}

func checkService(t *testing.T, p *ir.Provider, m androidManifest, versions [2]string) {
	t.Helper()
	if len(m.Services) != 1 {
		t.Fatalf("want one service, got %d", len(m.Services))
	}
	s := m.Services[0]
	if s.Exported != "true" || len(s.Actions) != 1 || s.Actions[0].Name != "com.clawseed.action.TOOL_PROVIDER" {
		t.Errorf("service: %+v", s)
	}
	want := map[string]string{
		"com.clawseed.tools.authority": p.Android.Authority,
		"com.clawseed.tools.version":   versions[0],
		"com.clawseed.tools.versions":  versions[1],
	}
	got := map[string]string{}
	for _, md := range s.MetaData {
		got[md.Name] = md.Value
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("meta-data %s = %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("meta-data: %v", got)
	}
}

func checkProvider(t *testing.T, p *ir.Provider, m androidManifest) {
	t.Helper()
	if len(m.Providers) != 1 {
		t.Fatalf("want one provider, got %d", len(m.Providers))
	}
	pr := m.Providers[0]
	if pr.Authorities != p.Android.Authority || pr.Exported != "true" || pr.Permission != "com.clawseed.permission.ACCESS_TOOLS" {
		t.Errorf("provider: %+v", pr)
	}
	if pr.Name != p.Targets.KotlinPackage+"."+p.Targets.KotlinClass {
		t.Errorf("provider class %s is not the Kotlin subclass", pr.Name)
	}
}

// TestConsumerQueries checks the Consumer-side snippet.
func TestConsumerQueries(t *testing.T) {
	p, files := render(t, "alerts")
	m := files["consumer-queries.xml"]
	if len(m.UsesPermissions) != 1 || m.UsesPermissions[0].Name != "com.clawseed.permission.ACCESS_TOOLS" {
		t.Errorf("uses-permission: %+v", m.UsesPermissions)
	}
	if len(m.Queries.Actions) != 1 || m.Queries.Actions[0].Name != "com.clawseed.action.TOOL_PROVIDER" {
		t.Errorf("queries intent: %+v", m.Queries)
	}
	if len(m.Queries.Packages) != 1 || m.Queries.Packages[0].Name != p.Android.Package {
		t.Errorf("queries package: %+v", m.Queries)
	}
}
