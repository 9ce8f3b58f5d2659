package consumer

import (
	"encoding/json"
	"sync"

	"github.com/cetpgen/cetpgen/runtime/localschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// toolCache holds the compiled output schemas of the last tool list, keyed
// by its revision: a list with the same revision reuses them, another
// revision replaces them all. It also records the session the list was
// fetched on: a new session fetches the list again before it checks a
// result, so the revision is checked after every negotiation (§3.3).
type toolCache struct {
	mu       sync.Mutex
	revision string
	known    bool
	session  *Session
	out      map[string]*jsonschema.Schema // nil entry: did not compile
}

// update caches the schemas of the tools l keeps, listed on session s;
// schemas compiled for the same revision are reused.
func (t *toolCache) update(l *ToolList, s *Session) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.session = s
	same := t.known && t.revision == l.Revision
	out := make(map[string]*jsonschema.Schema, len(l.Tools))
	for _, tool := range l.Tools {
		if prev, ok := t.out[tool.Name]; same && ok {
			out[tool.Name] = prev
			continue
		}
		out[tool.Name], _ = compileUntrusted(tool.Name, tool.OutputSchema)
	}
	t.revision, t.known, t.out = l.Revision, true, out
}

// fresh reports whether the cached list was fetched on session s.
func (t *toolCache) fresh(s *Session) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.known && s != nil && t.session == s
}

// output returns the compiled output schema of tool, if cached and
// compiled.
func (t *toolCache) output(tool string) (*jsonschema.Schema, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.out[tool]
	return s, s != nil
}

// Revision returns the revision of the cached tool list, or "" before
// ListTools.
func (c *Client) Revision() string {
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	return c.cache.revision
}

// compileUntrusted compiles a schema a Provider sent, as Draft 2020-12,
// with no loader.
func compileUntrusted(tool string, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := localschema.Decode(raw)
	if err != nil {
		return nil, err
	}
	return localschema.Compile("urn:cetp:consumer:"+tool+":output", doc)
}
