package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"unicode/utf8"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/source"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Limits on one input document. They bound the work a hostile file can
// cause.
const (
	// MaxInputBytes is the largest input accepted.
	MaxInputBytes = 64 << 20
	// MaxDepth is how deeply input values may nest. A schema nested this
	// deep still fits a spec file's nesting limit once it sits under
	// input_schema.
	MaxDepth = spec.MaxDepth - 8
)

// document is a parsed JSON input: its values (objects are *object,
// numbers json.Number, so every literal and the order of keys is kept) and the
// offset of every value, by JSON pointer, for positioned diagnostics.
type document struct {
	path    string
	data    []byte
	value   any
	offsets map[string]int
	lines   []int // offset of the start of each line
	// positions replace offsets for a YAML input, whose parser gives
	// lines and columns.
	positions map[string]source.Pos
}

// parseJSON decodes data, a JSON document named path. It rejects what
// JSON parsers disagree on or repair silently: invalid UTF-8, duplicate
// keys, trailing data, nesting past MaxDepth.
func parseJSON(path string, data []byte) (*document, diag.List) {
	d := &document{path: path, data: data, offsets: map[string]int{}}
	d.lines = lineStarts(data)
	var l diag.List
	if len(data) > MaxInputBytes {
		l.Errorf(source.FileStart(path), "import-too-large", "the input is %d bytes, over the %d-byte limit", len(data), MaxInputBytes)
		return nil, l
	}
	if i := invalidUTF8(data); i >= 0 {
		l.Errorf(d.pos(i), "import-json", "invalid UTF-8 at byte %d; JSON text must be UTF-8", i)
		return nil, l
	}
	p := &jsonParser{doc: d, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	v, err := p.value("", 0)
	if err == nil {
		err = p.end()
	}
	if err != nil {
		l.Errorf(d.pos(p.errOffset(err)), "import-json", "%s", jsonMessage(err))
		return nil, l
	}
	d.value = v
	return d, nil
}

// posError is a parse error at a known offset.
type posError struct {
	offset int
	msg    string
}

func (e *posError) Error() string { return e.msg }

// jsonParser builds values from the decoder's tokens and records where
// each value starts.
type jsonParser struct {
	doc *document
	dec *json.Decoder
}

// start is the offset of the next token: the decoder's offset past
// white space and the separators ',' and ':'.
func (p *jsonParser) start() int {
	i := int(p.dec.InputOffset())
	for i < len(p.doc.data) {
		switch p.doc.data[i] {
		case ' ', '\t', '\n', '\r', ',', ':':
			i++
			continue
		}
		break
	}
	return i
}

func (p *jsonParser) value(ptr string, depth int) (any, error) {
	at := p.start()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	p.doc.offsets[ptr] = at
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= MaxDepth {
		return nil, &posError{at, fmt.Sprintf("values nest deeper than %d levels", MaxDepth)}
	}
	switch delim {
	case '{':
		return p.object(ptr, depth)
	case '[':
		return p.array(ptr, depth)
	}
	return nil, &posError{at, fmt.Sprintf("unexpected %q", delim)}
}

func (p *jsonParser) object(ptr string, depth int) (any, error) {
	obj := newObject()
	for p.dec.More() {
		at := p.start()
		tok, err := p.dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if obj.has(key) {
			return nil, &posError{at, fmt.Sprintf("key %q appears twice in one object", key)}
		}
		v, err := p.value(ptr+"/"+spec.EscapeToken(key), depth+1)
		if err != nil {
			return nil, err
		}
		obj.set(key, v)
	}
	_, err := p.dec.Token() // '}'
	return obj, err
}

func (p *jsonParser) array(ptr string, depth int) (any, error) {
	arr := []any{}
	for p.dec.More() {
		v, err := p.value(fmt.Sprintf("%s/%d", ptr, len(arr)), depth+1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	_, err := p.dec.Token() // ']'
	return arr, err
}

// end checks that nothing but white space follows the value.
func (p *jsonParser) end() error {
	at := p.start()
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return &posError{at, "data after the JSON value"}
	}
	return nil
}

// errOffset is where err happened.
func (p *jsonParser) errOffset(err error) int {
	var pe *posError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &pe):
		return pe.offset
	case errors.As(err, &se):
		return max(int(se.Offset)-1, 0)
	}
	return int(p.dec.InputOffset())
}

func jsonMessage(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "invalid JSON: the input ends before the value does"
	}
	var pe *posError
	if errors.As(err, &pe) {
		return "invalid JSON: " + pe.msg
	}
	return "invalid JSON: " + err.Error()
}

// pos is the line and column (in characters) of offset.
func (d *document) pos(offset int) source.Pos {
	line := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > offset }) - 1
	line = max(line, 0)
	start := d.lines[line]
	end := min(offset, len(d.data))
	return source.Pos{File: d.path, Line: line + 1, Col: utf8.RuneCount(d.data[start:end]) + 1}
}

// at is the position of the value at ptr, or of the nearest enclosing
// value that has one.
func (d *document) at(ptr string) source.Pos {
	for {
		if p, ok := d.positions[ptr]; ok {
			return p
		}
		if off, ok := d.offsets[ptr]; ok {
			return d.pos(off)
		}
		if ptr == "" {
			return source.FileStart(d.path)
		}
		ptr = spec.Parent(ptr)
	}
}

func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// invalidUTF8 is the offset of the first byte that is not UTF-8, or -1.
func invalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}
