package spec

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/source"
	"gopkg.in/yaml.v3"
)

// Limits on one spec file. They bound the work a hostile file can cause.
const (
	// MaxFileBytes is the largest spec file accepted.
	MaxFileBytes = 1 << 20
	// MaxNodes is how many nodes one file may expand to, aliases counted
	// every time they are used.
	MaxNodes = 100_000
	// MaxDepth is how deeply values may nest.
	MaxDepth = 128
)

// Parse parses one spec file. path is the display path, rel the path inside
// the spec directory. It returns nil and at least one error diagnostic when
// the file cannot be turned into a JSON value. The Doc keeps data, which
// the caller must not modify afterwards.
func Parse(path, rel string, data []byte) (*Doc, diag.List) {
	var l diag.List
	if len(data) > MaxFileBytes {
		l.Errorf(source.FileStart(path), "file-too-large", "file is larger than the %d-byte limit of spec files", MaxFileBytes)
		return nil, l
	}
	if pos, bad := invalidUTF8(path, data); bad {
		l.Errorf(pos, "yaml-syntax", "invalid YAML: the file is not valid UTF-8 here; save it as UTF-8")
		return nil, l
	}
	root, more, err := decodeDocuments(data)
	switch {
	case err != nil:
		msg := syntaxMessage(err)
		l.Errorf(refineSyntaxPos(syntaxPos(path, err), msg, data), "yaml-syntax", "%s", msg)
		return nil, l
	case root == nil:
		l.Errorf(source.FileStart(path), "empty-document", "file is empty; expected a YAML mapping")
		return nil, l
	case more != nil:
		l.Errorf(source.Pos{File: path, Line: more.Line, Col: more.Column}, "multi-document",
			"a second YAML document starts here; a spec file holds exactly one")
		return nil, l
	}
	c := &converter{doc: &Doc{Path: path, Rel: rel, root: root}}
	v, ok := c.value(root, 0)
	l.Add(c.diags...)
	if !ok {
		return nil, l
	}
	c.doc.Value = v
	c.doc.root, c.doc.src = nil, data
	return c.doc, l
}

// decodeDocuments returns the content node of the first document and, when
// there is one, the content node of the second.
func decodeDocuments(data []byte) (first, second *yaml.Node, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	first, err = nextDocument(dec)
	if err != nil || first == nil {
		return nil, nil, err
	}
	second, err = nextDocument(dec)
	if err != nil && second == nil {
		// A syntax error after the first document still fails the file.
		return nil, nil, err
	}
	return first, second, nil
}

func nextDocument(dec *yaml.Decoder) (*yaml.Node, error) {
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxPos extracts the line yaml.v3 names in its error (it names no
// column), falling back to the file start.
func syntaxPos(path string, err error) source.Pos {
	if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			return source.Pos{File: path, Line: n, Col: 1}
		}
	}
	return source.FileStart(path)
}

func syntaxMessage(err error) string {
	if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
		return "invalid YAML: " + m[2]
	}
	return "invalid YAML: " + err.Error()
}
