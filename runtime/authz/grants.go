package authz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"gopkg.in/yaml.v3"
)

// MaxGrantsFileBytes bounds the grants file; a larger file is an error.
const MaxGrantsFileBytes = 1 << 20

// Grant is one entry of a grants file: the scopes one caller UID holds,
// optionally only while it runs a given package signed with a given
// certificate, and only until an expiry.
type Grant struct {
	// UID is the caller's UID, as the kernel reports it.
	UID int
	// Scopes are the scopes granted.
	Scopes []string
	// Package, when set, must be one of the caller's packages.
	Package string
	// CertSHA256, when set, must be among that package's signing
	// certificate digests (64 lowercase hex digits; colons and upper case
	// are accepted in the file).
	CertSHA256 string
	// Expires, when set, ends the grant: from that instant on it grants
	// nothing.
	Expires time.Time
}

// matches reports whether g applies to caller c at now.
func (g Grant) matches(c provider.Caller, now time.Time) bool {
	if g.UID != c.UID || (!g.Expires.IsZero() && !now.Before(g.Expires)) {
		return false
	}
	if g.Package == "" {
		return true
	}
	for _, p := range c.Packages {
		if p.Name == g.Package && (g.CertSHA256 == "" || slices.Contains(p.CertSHA256, g.CertSHA256)) {
			return true
		}
	}
	return false
}

// GrantsOptions configure a Grants Authorizer.
type GrantsOptions struct {
	// Catalogue, when set, is the Provider's scope catalogue: a grant of a
	// scope outside it is an error of the file (a typo never passes
	// silently).
	Catalogue []provider.Scope
	// Now defaults to time.Now.
	Now func() time.Time
}

// Grants is an Authorizer that reads its grants from a YAML file:
//
//	grants:
//	  - uid: 10123
//	    scopes: [notes.read, notes.write]
//	    package: com.example.agent   # optional
//	    cert_sha256: 3f9a…           # optional, needs package
//	    expires: 2027-01-01T00:00:00Z   # optional, RFC 3339
//
// The file is checked for a change (modification time, size, inode) on
// every call and re-read when it changed. A file that no longer parses
// makes Scopes fail (the engine answers UNAVAILABLE, retryable) until it
// is fixed; a file that was removed grants nothing. Grants is safe for
// concurrent use.
type Grants struct {
	path string
	opt  GrantsOptions

	mu     sync.Mutex
	stamp  fileStamp
	grants []Grant
	err    error
}

// fileStamp identifies one version of a file.
type fileStamp struct {
	exists  bool
	modTime time.Time
	size    int64
	ino     uint64
}

// OpenGrants reads the grants file at path. A file that is missing or does
// not parse is an error here, so a server does not start on a mistyped
// path.
func OpenGrants(path string, opt GrantsOptions) (*Grants, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	g := &Grants{path: path, opt: opt}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("grants file: %w", err)
	}
	if _, err := g.current(); err != nil {
		return nil, err
	}
	return g, nil
}

// Path returns the grants file's path.
func (g *Grants) Path() string { return g.path }

// Scopes implements provider.Authorizer.
func (g *Grants) Scopes(_ context.Context, c provider.Caller) ([]string, error) {
	grants, err := g.current()
	if err != nil {
		return nil, err
	}
	now := g.opt.Now()
	var out []string
	for _, gr := range grants {
		if gr.matches(c, now) {
			out = append(out, gr.Scopes...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Resolution implements provider.Authorizer: there is no grant UI.
func (*Grants) Resolution(context.Context, provider.Caller, provider.ToolInfo, []string) *protocol.Resolution {
	return nil
}

// Launch implements provider.Authorizer; it is never reached.
func (*Grants) Launch(context.Context, provider.Caller, *protocol.Resolution) error { return noUI() }

// current returns the grants of the file as it is now, re-reading it when
// its stamp changed.
func (g *Grants) current() ([]Grant, error) {
	st, err := stampOf(g.path)
	if err != nil {
		return nil, fmt.Errorf("grants file: %w", err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if st == g.stamp && (g.grants != nil || g.err != nil || !st.exists) {
		return g.grants, g.err
	}
	g.stamp = st
	g.grants, g.err = nil, nil
	if st.exists {
		g.grants, g.err = readGrants(g.path, g.opt.Catalogue)
		if g.grants == nil && g.err == nil {
			g.grants = []Grant{}
		}
	}
	return g.grants, g.err
}

// stampOf returns the stamp of the file at path; a missing file has the
// zero stamp.
func stampOf(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileStamp{}, nil
	}
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{exists: true, modTime: fi.ModTime(), size: fi.Size(), ino: inode(fi)}, nil
}

// readGrants reads and checks the grants file at path.
func readGrants(path string, catalogue []provider.Scope) ([]Grant, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("grants file: %w", err)
	}
	grants, err := ParseGrants(data, catalogue)
	if err != nil {
		return nil, fmt.Errorf("grants file %s: %w", path, err)
	}
	return grants, nil
}

// grantsDoc is the YAML shape of a grants file.
type grantsDoc struct {
	Grants []grantDoc `yaml:"grants"`
}

type grantDoc struct {
	UID        *int     `yaml:"uid"`
	Scopes     []string `yaml:"scopes"`
	Package    string   `yaml:"package"`
	CertSHA256 string   `yaml:"cert_sha256"`
	Expires    string   `yaml:"expires"`
}

// ParseGrants parses the text of a grants file. Unknown keys, duplicate
// keys, a missing uid, an empty scope list, a scope outside catalogue
// (when given), a certificate digest without a package or not 32 bytes of
// hex, and an expiry that is not RFC 3339 are errors, reported with the
// entry's line.
func ParseGrants(data []byte, catalogue []provider.Scope) ([]Grant, error) {
	if len(data) > MaxGrantsFileBytes {
		return nil, fmt.Errorf("larger than %d bytes", MaxGrantsFileBytes)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var doc grantsDoc
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, s := range catalogue {
		known[s.Name] = true
	}
	lines := entryLines(&root)
	out := make([]Grant, 0, len(doc.Grants))
	for i, d := range doc.Grants {
		g, err := d.grant(known)
		if err != nil {
			return nil, fmt.Errorf("line %d: grant %d: %w", lineOf(lines, i), i+1, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// grant checks one entry and converts it.
func (d grantDoc) grant(known map[string]bool) (Grant, error) {
	if d.UID == nil || *d.UID < 0 {
		return Grant{}, errors.New("uid is required and must not be negative")
	}
	if len(d.Scopes) == 0 {
		return Grant{}, errors.New("scopes must list at least one scope")
	}
	for _, s := range d.Scopes {
		if len(known) > 0 && !known[s] {
			return Grant{}, fmt.Errorf("scope %q is not in the Provider's catalogue", s)
		}
	}
	g := Grant{UID: *d.UID, Scopes: slices.Compact(slices.Sorted(slices.Values(d.Scopes))), Package: d.Package}
	if d.CertSHA256 != "" {
		if d.Package == "" {
			return Grant{}, errors.New("cert_sha256 needs package: a digest belongs to a package's signature")
		}
		c := strings.ToLower(strings.ReplaceAll(d.CertSHA256, ":", ""))
		if len(c) != 64 || strings.Trim(c, "0123456789abcdef") != "" {
			return Grant{}, fmt.Errorf("cert_sha256 %q is not a SHA-256 digest in hex", d.CertSHA256)
		}
		g.CertSHA256 = c
	}
	if d.Expires != "" {
		t, err := time.Parse(time.RFC3339, d.Expires)
		if err != nil {
			return Grant{}, fmt.Errorf("expires %q is not an RFC 3339 time", d.Expires)
		}
		g.Expires = t
	}
	return g, nil
}

// entryLines returns the line of each entry of the grants list.
func entryLines(root *yaml.Node) []int {
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == "grants" && doc.Content[i+1].Kind == yaml.SequenceNode {
			var lines []int
			for _, e := range doc.Content[i+1].Content {
				lines = append(lines, e.Line)
			}
			return lines
		}
	}
	return nil
}

func lineOf(lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	return 0
}
