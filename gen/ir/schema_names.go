package ir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// GoReserved are the package-level names of a generated Go package that
// schema types never take: its API and its helpers.
var GoReserved = []string{
	"Handler", "Client", "NewClient", "New", "Tools", "Descriptor", "ProviderID", "Revision",
	"Nullable", "NullableValue", "NullableNull", "DateTime", "DateTimeOf",
}

// goPrivate are the unexported package-level names of a generated Go
// package that schema constants never take.
var goPrivate = []string{"adapt", "member"}

// memberReserved are the names a field, variant or accessor never takes
// within its type: the JSON methods.
var memberReserved = []string{"MarshalJSON", "UnmarshalJSON"}

// ToolNames are the identifiers a tool gets in the targets.
type ToolNames struct {
	// GoMethod is the Handler and Client method; GoInputSchema and
	// GoOutputSchema are the unexported constants of its schemas.
	GoMethod, GoInputSchema, GoOutputSchema string
	// KotlinObject is the Kotlin object holding the tool's conversions
	// (and its schema holder in the Schemas object), and the prefix of its
	// type names; KotlinMethod is its abstract method in the base class.
	KotlinObject, KotlinMethod string
}

// namer allocates every name of one Provider, in a fixed order: tools by
// name; each tool's method and type names first, then its input's and
// its output's nodes depth first, members by name.
type namer struct {
	goNS, goPriv, ktNS *namespace
	// ktMethods are the tool methods of the Kotlin base class.
	ktMethods *namespace
	kotlin    KotlinNames
	seen      map[*Node]bool
	decls     []*Node
}

// nameProvider names the tools and every declared node of their graphs.
//
// The graphs are named all at once, each tool on a namer of its own
// (fork) that sees the names taken before any graph was named; the
// tools' takes are then replayed in tool order. Where every take comes
// out as the tool's namer had it, its names are the ones naming the
// tools one after another gives; a tool whose names met another tool's
// is named again, after the tools before it, as that order would.
func nameProvider(p *Provider) {
	p.Kotlin = kotlinNames(p.Targets)
	nm := &namer{
		goNS: newNamespace(GoReserved...), goPriv: newNamespace(goPrivate...),
		ktNS:      newNamespace(append(append([]string{}, KotlinReserved...), p.Kotlin.all()...)...),
		ktMethods: newNamespace(kotlinBaseMembers...),
		kotlin:    p.Kotlin,
		seen:      map[*Node]bool{},
	}
	for _, t := range p.Tools {
		m := nm.goNS.take(exportName(t.Name))
		obj := nm.ktNS.take(kotlinExport(t.Name))
		t.Names = ToolNames{GoMethod: m, KotlinObject: obj, KotlinMethod: nm.ktMethods.take(kotlinMember(t.Name))}
		nm.root(t.Input, m+"Input", obj+"Input", "the input of the tool "+t.Name)
		nm.root(t.Output, m+"Output", obj+"Output", "the output of the tool "+t.Name)
		t.Names.GoInputSchema = nm.goPriv.take(unexport(m) + "InputSchema")
		t.Names.GoOutputSchema = nm.goPriv.take(unexport(m) + "OutputSchema")
	}
	forks := make([]*namer, len(p.Tools))
	par.Each(len(p.Tools), func(i int) {
		forks[i] = nm.fork()
		forks[i].graphs(p.Tools[i])
	})
	for i, t := range p.Tools {
		if !nm.adopt(forks[i]) {
			renewGraphs(t)
			nm.graphs(t)
		}
	}
	p.Decls = nm.decls
}

// fork returns a namer for one tool's graphs that sees the type names
// taken so far; nm must not take names while it is in use.
func (nm *namer) fork() *namer {
	return &namer{goNS: nm.goNS.over(), ktNS: nm.ktNS.over(), kotlin: nm.kotlin, seen: map[*Node]bool{}}
}

// graphs names the nodes of a tool's input and output and the CLI flags
// of its input's members.
func (nm *namer) graphs(t *Tool) {
	nameFlags(t.Input.Graph.Root.Resolved())
	nm.visit(t, t.Input.Graph.Root, "", "")
	nm.visit(t, t.Output.Graph.Root, "", "")
}

// adopt replays the takes of a fork in nm and keeps its declarations; it
// reports false, leaving nm as it was, when a take came out otherwise.
func (nm *namer) adopt(f *namer) bool {
	goNames, ok := nm.goNS.replay(f.goNS.takes)
	if !ok {
		nm.goNS.release(goNames)
		return false
	}
	if ktNames, ok := nm.ktNS.replay(f.ktNS.takes); !ok {
		nm.goNS.release(goNames)
		nm.ktNS.release(ktNames)
		return false
	}
	nm.decls = append(nm.decls, f.decls...)
	return true
}

// renewGraphs builds a tool's graphs again, with no names but their
// roots', for naming them once more.
func renewGraphs(t *Tool) {
	renew := func(s *Schema, side string) {
		old := s.Graph.Root
		s.Graph = BuildGraph(s.Value, t.Name, side)
		r := s.Graph.Root
		r.Declared, r.GoName, r.KotlinName, r.What = old.Declared, old.GoName, old.KotlinName, old.What
	}
	renew(t.Input, "input")
	renew(t.Output, "output")
}

// root declares a schema's root node under its fixed names.
func (nm *namer) root(s *Schema, goName, ktName, what string) {
	r := s.Graph.Root
	r.Declared, r.GoName, r.KotlinName, r.What = true, nm.goNS.take(goName), nm.ktNS.take(ktName), what
}

// declare names a node that is a type of its own.
func (nm *namer) declare(n *Node, goHint, ktHint, what string) {
	if n.GoName != "" {
		return
	}
	n.Declared, n.GoName, n.KotlinName, n.What = true, nm.goNS.take(goHint), nm.ktNS.take(ktHint), what
}

// declares reports whether a node's kind is a named type in every
// target.
func declares(n *Node) bool {
	switch n.Kind {
	case KindObject, KindEnum, KindTagged, KindUnion:
		return true
	}
	return false
}

// visit names n (reached under the hints) and everything below it.
func (nm *namer) visit(t *Tool, n *Node, goHint, ktHint string) {
	if n == nil || nm.seen[n] {
		return
	}
	nm.seen[n] = true
	if declares(n) {
		nm.declare(n, goHint, ktHint, n.What)
	}
	if n.Declared {
		goHint, ktHint = n.GoName, n.KotlinName
		nm.decls = append(nm.decls, n)
	}
	switch n.Kind {
	case KindRef:
		nm.late(t, n.Target)
		if refLike(n) {
			nm.ref(t, n.Target)
		} else {
			nm.visit(t, n.Target, goHint, ktHint)
		}
	case KindObject:
		nm.members(t, n)
	case KindEnum:
		consts := newNamespace()
		for _, v := range n.Values {
			v.GoName, v.KotlinName = nm.goNS.take(n.GoName+exportName(v.Value)), consts.take(kotlinConst(v.Value))
		}
	case KindTagged, KindUnion:
		nm.variants(t, n)
	case KindArray, KindTuple:
		for i, p := range n.Prefix {
			nm.visit(t, p, goHint+"Item"+strconv.Itoa(i+1), ktHint+"Item"+strconv.Itoa(i+1))
		}
		nm.visit(t, n.Items, goHint+"Item", ktHint+"Item")
	case KindMap:
		nm.visit(t, n.ExtraNode, goHint+"Value", ktHint+"Value")
	}
}

// refLike reports whether a KindRef node is a "$ref" (rather than a
// union or allOf reduced to one branch, which takes the node's hints).
func refLike(n *Node) bool {
	obj := n.Obj()
	return obj != nil && refOf(obj) != ""
}

// ref names the target of a "$ref" after its location: <Tool><last
// pointer token>. An array, map or tuple target is declared too, so
// that a recursive one has a name to refer to.
func (nm *namer) ref(t *Tool, target *Node) {
	if nm.seen[target] {
		return
	}
	last, ktLast := "Root", "Root"
	if target.Ptr != "" {
		last, ktLast = exportName(schemaref.LastToken(target.Ptr)), kotlinExport(schemaref.LastToken(target.Ptr))
	}
	what := fmt.Sprintf("the schema at %q of %s", "#"+target.Ptr, t.Name)
	switch target.Kind {
	case KindArray, KindMap, KindTuple:
		nm.declare(target, t.Names.GoMethod+last, t.Names.KotlinObject+ktLast, what)
	}
	if target.What == "" {
		target.What = what
	}
	nm.visit(t, target, t.Names.GoMethod+last, t.Names.KotlinObject+ktLast)
}

// late declares an array, map or tuple that a reference reaches after it
// was visited inline: a type that contains itself needs a name.
func (nm *namer) late(t *Tool, target *Node) {
	switch {
	case !nm.seen[target] || target.Declared:
		return
	case target.Kind == KindArray || target.Kind == KindMap || target.Kind == KindTuple:
		last := schemaref.LastToken(target.Ptr)
		nm.declare(target, t.Names.GoMethod+exportName(last), t.Names.KotlinObject+kotlinExport(last), fmt.Sprintf("the schema at %q of %s", "#"+target.Ptr, t.Name))
		nm.decls = append(nm.decls, target)
	}
}

// members names an object's fields (unique within the type, "Extra"
// kept for the extra members) and the fields' types.
func (nm *namer) members(t *Tool, n *Node) {
	gns, kns := newNamespace(memberReserved...), newNamespace(kotlinMembers...)
	if n.Extra != ExtraNone {
		gns.take("Extra")
		kns.take("extra")
	}
	for _, p := range n.Props {
		p.GoName = gns.take(exportName(p.Name))
		p.KotlinName = kns.take(kotlinMember(p.Name))
	}
	for _, p := range n.Props {
		if p.Node.What == "" {
			// strconv.Quote is what %q writes; concatenating spares fmt on every member.
			p.Node.What = "the type of member " + strconv.Quote(p.Name) + " of " + n.GoName
		}
		nm.visit(t, p.Node, n.GoName+p.GoName, n.KotlinName+kotlinExport(p.Name))
	}
	nm.visit(t, n.ExtraNode, n.GoName+"Value", n.KotlinName+"Value")
}

// variants names a union's variants and their types.
func (nm *namer) variants(t *Tool, n *Node) {
	vns := newNamespace(memberReserved...)
	// A tagged union's Kotlin variants are classes nested in its sealed
	// class, so they never take a name its body refers to; an open
	// union's are accessors and constructors beside fromJson.
	kvns := newNamespace(append(append([]string{n.KotlinName, "Json"}, KotlinReserved...), nm.kotlin.all()...)...)
	for i, v := range n.Variants {
		name, ktName := variantName(v, i, exportName), variantName(v, i, kotlinExport)
		if n.Kind == KindTagged {
			name, ktName = exportName(v.Value), kotlinExport(v.Value)
		}
		v.GoName, v.KotlinName = vns.take(name), kvns.take(ktName)
		if n.Kind == KindUnion {
			v.GoCtor = nm.goNS.take(n.GoName + "From" + v.GoName)
		}
	}
	for _, v := range n.Variants {
		what := "a variant of " + n.GoName
		if n.Kind == KindTagged {
			what = fmt.Sprintf("the variant of %s whose %q is %q", n.GoName, n.Disc, v.Value)
		}
		if v.Node.What == "" {
			v.Node.What = what
		}
		nm.visit(t, v.Node, n.GoName+v.GoName, n.KotlinName+v.KotlinName)
	}
}

// variantName names an open union's branch: its "$ref"'s last token, the
// branch's one type, or VariantN.
func variantName(v *Variant, i int, export func(string) string) string {
	if obj := v.Node.Obj(); obj != nil {
		if ref := refOf(obj); ref != "" && schemaref.LastToken(ref) != "" {
			return export(schemaref.LastToken(ref))
		}
	}
	switch v.Node.Resolved().Kind {
	case KindString, KindEnum:
		return "String"
	case KindInteger:
		return "Integer"
	case KindNumber:
		return "Number"
	case KindBool:
		return "Boolean"
	case KindObject, KindMap:
		return "Object"
	case KindArray, KindTuple:
		return "Array"
	}
	return "Variant" + strconv.Itoa(i+1)
}

// nameFlags names the generated CLI's flag of every declared member of
// a tool's input object: the member's name in lowercase with "_" and a
// camelCase hump written "-" ("include_closed_today" ->
// "include-closed-today", "dueAt" -> "due-at"). A member gets no flag
// when that name is not a flag name (cetpcli.FlagName), is one the CLI
// keeps for itself (cetpcli.ReservedFlags), or is the name of two
// members; such a member is set through --json only.
func nameFlags(in *Node) {
	if in.Kind != KindObject {
		return
	}
	count := map[string]int{}
	for _, p := range in.Props {
		count[flagName(p.Name)]++
	}
	for _, p := range in.Props {
		if f := flagName(p.Name); f != "" && count[f] == 1 {
			p.CLIFlag = f
		}
	}
}

// flagName is the flag of a member name, or "" when it cannot have one.
func flagName(prop string) string {
	n, ok := kebab(prop)
	if !ok || !cetpcli.FlagName.MatchString(n) || slices.Contains(cetpcli.ReservedFlags, n) {
		return ""
	}
	return n
}

// kebab lowercases prop, turning "_" and an upper-case letter after the
// first into a hyphen; ok is false for any character but ASCII letters,
// digits, "_" and "-".
func kebab(prop string) (string, bool) {
	var b strings.Builder
	for i, r := range prop {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r + 'a' - 'A')
		case r == '_':
			b.WriteByte('-')
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return b.String(), true
}
