package golang

import (
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/dave/jennifer/jen"
)

// kind classifies a Go type by how an absent or null member is expressed
// with it (docs/go-mapping.md, "Optional and nullable").
type kind int

const (
	// kValue types (scalars, structs, named types) need a pointer to be
	// absent or null.
	kValue kind = iota
	// kList types (slices, maps) are absent when nil; null needs
	// Nullable when the member is also optional.
	kList
	// kRaw types hold the JSON as it came, null included.
	kRaw
)

// gotype is a Go type expression and its kind.
type gotype struct {
	code jen.Code
	kind kind
	// name is the package-level type name, or "" for unnamed types.
	name string
	// node is the declared IR node of a named type.
	node *ir.Node
}

const (
	pkgJSON     = "encoding/json"
	pkgContext  = "context"
	pkgTime     = "time"
	pkgErrors   = "errors"
	pkgFmt      = "fmt"
	pkgProvider = "github.com/cetpgen/cetpgen/runtime/provider"
	pkgConsumer = "github.com/cetpgen/cetpgen/runtime/consumer"
	pkgProtocol = "github.com/cetpgen/cetpgen/runtime/protocol"
	pkgJSONVal  = "github.com/cetpgen/cetpgen/runtime/jsonval"
)

var (
	tString = gotype{code: jen.String()}
	tInt64  = gotype{code: jen.Qual(pkgJSONVal, "Int64")}
	tBigInt = gotype{code: jen.Qual(pkgJSONVal, "Int")}
	tNumber = gotype{code: jen.Qual(pkgJSONVal, "Number")}
	tBool   = gotype{code: jen.Bool()}
	tRaw    = gotype{code: jen.Qual(pkgJSON, "RawMessage"), kind: kRaw}
)

// declKind is what a package-level type declaration is.
type declKind int

const (
	dStruct declKind = iota
	dEnum
	dTagged // a discriminated union
	dRaw    // a union kept as raw JSON with typed accessors
	dDefined
	dAlias
)

// decl is one package-level type declaration.
type decl struct {
	kind declKind
	name string
	node *ir.Node
	doc  docLines
	// fields of a struct.
	fields []*field
	// values of an enum, as written.
	values []enumValue
	// variants of a union; disc is the discriminator's member name.
	variants []*variant
	disc     string
	// under is the type of a defined type or an alias.
	under gotype
	// extra is the type of a struct's Extra field (nil: no other member
	// is admitted).
	extra *gotype
}

// field is one member of a struct.
type field struct {
	name string // Go name
	json string // member name
	typ  jen.Code
	omit bool // absent when zero (omitzero)
	// awkward marks a member name that a json tag cannot carry; the
	// struct's generated methods encode it.
	awkward bool
	doc     docLines
}

// enumValue is one constant of an enum.
type enumValue struct{ name, value string }

// variant is one branch of a union.
type variant struct {
	name string // Go field or accessor name
	typ  gotype
	// value and discField are the discriminator's value and the Go name
	// of its field in the branch struct (tagged unions only).
	value     string
	discField string
	// ctor is the constructor of a raw union's variant.
	ctor string
}

// needsMethods reports whether a struct needs generated JSON methods:
// it keeps extra members, or has members a tag cannot carry.
func (d *decl) needsMethods() bool {
	for _, f := range d.fields {
		if f.awkward {
			return true
		}
	}
	return d.extra != nil
}
