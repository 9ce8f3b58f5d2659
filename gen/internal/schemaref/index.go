package schemaref

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Why a reference does not resolve.
var (
	// ErrSyntax: the reference is not a URI reference.
	ErrSyntax = errors.New("not a valid URI reference")
	// ErrNonlocal: the reference names a resource outside the document.
	ErrNonlocal = errors.New("points outside the document")
	// ErrUnresolved: the resource is the document's, the fragment names
	// nothing in it.
	ErrUnresolved = errors.New("resolves to nothing in the document")
)

// Ref is one "$ref" or "$dynamicRef" of a document.
type Ref struct {
	// Ptr is the pointer of the reference's value ("/properties/a/$ref").
	Ptr string
	// Value is the reference as written.
	Value string
	// Base is the base URI it resolves against.
	Base string
}

// BadID is an "$id" that is not a URI reference; the base URI does not
// change there.
type BadID struct {
	// Ptr is the pointer of the "$id" value.
	Ptr string
	ID  string
	Err error
}

// Index is one schema document read for references: the base URI in
// effect at every subschema, the resources embedded under "$id", the
// anchors, and every reference and malformed "$id" in document order.
type Index struct {
	// Root is the document.
	Root any
	// Refs are the document's references, in Each's order.
	Refs []Ref
	// BadIDs are the "$id" values that are not URI references.
	BadIDs []BadID

	// baseOf is the base URI at the JSON pointers where it changes: the
	// root and the subschemas whose "$id" sets another (see index).
	baseOf map[string]string
	// resources maps an absolute URI (no fragment) to the pointer of the
	// resource's root in the document.
	resources map[string]string
	// anchors maps "uri#name" to the pointer of the anchored subschema.
	anchors map[string]string
}

// New indexes doc, whose base URI is base (an absolute URI) unless its
// root has an "$id". Only keywords that hold subschemas are visited: an
// "$anchor" inside a const value is not an anchor.
func New(doc any, base string) *Index {
	x := &Index{Root: doc, baseOf: map[string]string{}, resources: map[string]string{}, anchors: map[string]string{}}
	x.index(doc, "", base)
	return x
}

// index records the bases, resources, anchors and references of s at ptr
// and below; base is the base URI of its parent (of the document, at the
// root). A base URI is recorded only at the root and where an "$id"
// changes it: Base finds every other from the nearest recorded ancestor,
// so a document without "$id" records one base, not one per subschema.
func (x *Index) index(s any, ptr, base string) {
	if ptr == "" {
		x.baseOf[ptr] = base
	}
	obj, ok := s.(map[string]any)
	if !ok {
		return
	}
	parent := base
	if id, ok := obj["$id"].(string); ok {
		if u, err := join(base, id); err != nil {
			x.BadIDs = append(x.BadIDs, BadID{Ptr: ptr + "/$id", ID: id, Err: err})
		} else {
			base = u
			x.resources[base] = ptr
		}
	}
	if _, seen := x.resources[base]; !seen {
		x.resources[base] = ptr
	}
	if base != parent {
		x.baseOf[ptr] = base
	}
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[k].(string); ok {
			if _, dup := x.anchors[base+"#"+a]; !dup {
				x.anchors[base+"#"+a] = ptr
			}
		}
	}
	for _, k := range []string{"$ref", "$dynamicRef"} {
		if ref, ok := obj[k].(string); ok {
			x.Refs = append(x.Refs, Ref{Ptr: ptr + "/" + k, Value: ref, Base: base})
		}
	}
	Each(obj, ptr, func(sub any, subPtr string) { x.index(sub, subPtr, base) })
}

// join resolves ref against base and drops the fragment.
func join(base, ref string) (string, error) {
	abs, err := parse(base, ref)
	if err != nil {
		return "", err
	}
	abs.Fragment, abs.RawFragment = "", ""
	return abs.String(), nil
}

// parse resolves ref against base.
func parse(base, ref string) (*url.URL, error) {
	b, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("base %q: %w", base, err)
	}
	u, err := url.Parse(ref)
	if err != nil {
		return nil, err
	}
	return b.ResolveReference(u), nil
}

// Resolve turns a reference seen where the base URI is base into the JSON
// pointer of its target in the document: a JSON pointer fragment is taken
// relative to the resource the URI names ("#" is the enclosing resource,
// not the document root), any other fragment is an anchor. The error is
// ErrSyntax, ErrNonlocal or ErrUnresolved, wrapped.
func (x *Index) Resolve(base, ref string) (string, error) {
	abs, err := parse(base, ref)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	frag := abs.Fragment
	abs.Fragment, abs.RawFragment = "", ""
	res, ok := x.resources[abs.String()]
	if !ok {
		return "", ErrNonlocal
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		if ptr, ok := x.anchors[abs.String()+"#"+frag]; ok {
			return ptr, nil
		}
		return "", ErrUnresolved
	}
	ptr := Canonical(res + frag)
	if _, ok := ValueAt(x.Root, ptr); !ok {
		return "", ErrUnresolved
	}
	return ptr, nil
}

// Base is the base URI in effect at ptr: recorded by the index, else that
// of the nearest indexed ancestor.
func (x *Index) Base(ptr string) string {
	for {
		if b, ok := x.baseOf[ptr]; ok {
			return b
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return x.baseOf[""]
		}
		ptr = ptr[:i]
	}
}
