package manifest

import (
	"encoding/xml"
	"strings"
	"testing"
)

// TestCommentAndAttr checks that hostile text stays inside a comment and an
// attribute value and that the document still parses.
func TestCommentAndAttr(t *testing.T) {
	hostile := "a -- b --> <x/> \"q\" 'a' & \n c-"
	doc := "<?xml version=\"1.0\"?>\n<!-- " + comment(hostile) + " -->\n<m v=\"" + attr(hostile) + "\"/>"
	var m struct {
		V string `xml:"v,attr"`
	}
	if err := xml.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("does not parse: %v\n%s", err, doc)
	}
	if strings.Contains(comment(hostile), "--") || strings.HasSuffix(comment(hostile), "-") {
		t.Errorf("comment keeps a double hyphen: %q", comment(hostile))
	}
	if m.V != strings.ReplaceAll(hostile, "\n", "\n") {
		t.Errorf("attribute round trip: %q", m.V)
	}
}
