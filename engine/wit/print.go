package wit

import (
	"fmt"
	"strconv"
	"strings"
)

// Print renders a component's world in WIT syntax. Output is deterministic:
// items keep the order the component declares them in.
//
// Instances print inline as "import name: interface { ... }" so that the
// world reads as one self-contained file; a type an instance shares with an
// earlier instance prints as a "use" of it. Resource methods
// ([constructor]r, [method]r.m, [static]r.m) print inside their resource.
// Anonymous records, variants, enums and flags, which WIT can only spell as
// definitions, print inline as "record { a: u32 }" and the like.
func Print(w *World) string {
	if w == nil {
		w = &World{}
	}
	p := printer{origins: map[any]origin{}}
	p.register("", w.Imports)
	p.register("", w.Exports)

	var types, funcs []Extern
	for _, e := range append(append([]Extern(nil), w.Imports...), w.Exports...) {
		switch e.Kind {
		case ExternType, ExternResource:
			types = append(types, e)
		case ExternFunc:
			funcs = append(funcs, e)
		}
	}
	defs, attached := p.definitions("", types, funcs)
	sections := [][]string{
		defs,
		p.externs("import", w.Imports, attached),
		p.externs("export", w.Exports, attached),
	}

	var b strings.Builder
	b.WriteString("world root {\n")
	first := true
	for _, blocks := range sections {
		if len(blocks) == 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		b.WriteString(indent(joinBlocks(blocks)))
	}
	b.WriteString("}\n")
	return b.String()
}

// TypeString renders t as it appears where it is used: named types by
// name, anonymous ones spelled out.
func TypeString(t Type) string {
	if t == nil {
		return "_"
	}
	if n := NameOf(t); n != "" {
		return ident(n)
	}
	return typeBody(t)
}

// FuncString renders f as "func(name: type, ...) -> result".
func FuncString(f *Func) string {
	if f == nil {
		return "func()"
	}
	return "func" + signature(f.Params, f.Result)
}

// origin is where a named type or resource is first defined: an instance
// name ("" for the world root) and the name it has there.
type origin struct {
	scope string
	name  string
}

type printer struct {
	// origins maps each type (by pointer) and *ResourceType to its first
	// definition, so later instances "use" it instead of repeating it.
	origins map[any]origin
}

func (p *printer) register(scope string, items []Extern) {
	for _, e := range items {
		if e.Kind == ExternInstance && scope == "" {
			p.register(e.Name, e.Exports)
			continue
		}
		if k, ok := itemKey(e); ok {
			if _, seen := p.origins[k]; !seen {
				p.origins[k] = origin{scope, e.Name}
			}
		}
	}
}

// itemKey identifies a type or resource item. Primitive aliases have no
// identity (two "type size = u64" are unrelated), so they get no key.
func itemKey(e Extern) (any, bool) {
	switch e.Kind {
	case ExternType:
		switch e.Type.(type) {
		case *List, *FixedList, *Map, *Record, *Tuple, *Variant, *Enum, *Option, *Result, *Flags, *Own, *Borrow:
			return e.Type, true
		}
	case ExternResource:
		if e.Resource != nil {
			return e.Resource, true
		}
	}
	return nil, false
}

// externs renders one side's world-level functions and instances; funcs
// already printed inside a resource are skipped.
func (p *printer) externs(dir string, items []Extern, attached map[string]bool) []string {
	var blocks []string
	for _, e := range items {
		switch e.Kind {
		case ExternFunc:
			if !attached[e.Name] {
				blocks = append(blocks, dir+" "+ident(e.Name)+": "+FuncString(e.Func)+";")
			}
		case ExternInstance:
			blocks = append(blocks, dir+" "+e.Name+": interface "+p.instance(e))
		case ExternComponent, ExternModule:
			blocks = append(blocks, fmt.Sprintf("// %s %s: %s (not expressible in WIT)", dir, e.Name, externWord(e.Kind)))
		}
	}
	return blocks
}

// instance renders an instance's body, braces included.
func (p *printer) instance(inst Extern) string {
	var types, funcs []Extern
	for _, e := range inst.Exports {
		switch e.Kind {
		case ExternType, ExternResource:
			types = append(types, e)
		case ExternFunc:
			funcs = append(funcs, e)
		}
	}
	blocks, attached := p.definitions(inst.Name, types, funcs)
	for _, e := range inst.Exports {
		switch e.Kind {
		case ExternFunc:
			if !attached[e.Name] {
				blocks = append(blocks, ident(e.Name)+": "+FuncString(e.Func)+";")
			}
		case ExternInstance, ExternComponent, ExternModule:
			blocks = append(blocks, fmt.Sprintf("// %s: %s (not expressible in WIT)", e.Name, externWord(e.Kind)))
		}
	}
	if len(blocks) == 0 {
		return "{}"
	}
	return "{\n" + indent(joinBlocks(blocks)) + "}"
}

// definitions renders the type and resource items of a scope: "use"
// statements first, then definitions in order. Resource methods among
// funcs are printed inside their resource and reported in attached.
func (p *printer) definitions(scope string, types, funcs []Extern) (blocks []string, attached map[string]bool) {
	var from []string             // scopes used from, in order of first use
	used := map[string][]string{} // scope → "name" or "name as local"
	local := map[string]bool{}    // resources defined here
	defined := map[any]bool{}
	var defs []definition
	for _, e := range types {
		k, hasKey := itemKey(e)
		o, known := p.origins[k]
		switch {
		case !known || (o.scope == scope && o.name == e.Name):
			if hasKey && defined[k] {
				continue // listed on both the import and the export side
			}
			if hasKey {
				defined[k] = true
			}
			if e.Kind == ExternResource {
				local[e.Name] = true
			}
			defs = append(defs, definition{item: e})
		case o.scope == scope || o.scope == "":
			// Another name for something defined here or at the world root.
			if o.name != e.Name {
				defs = append(defs, definition{item: e, alias: o.name})
			}
		default:
			if _, seen := used[o.scope]; !seen {
				from = append(from, o.scope)
			}
			name := ident(o.name)
			if o.name != e.Name {
				name += " as " + ident(e.Name)
			}
			used[o.scope] = append(used[o.scope], name)
		}
	}
	for _, s := range from {
		blocks = append(blocks, "use "+s+".{"+strings.Join(used[s], ", ")+"};")
	}

	attached = map[string]bool{}
	methods := map[string][]string{}
	for _, f := range funcs {
		if m, ok := parseMethod(f.Name); ok && local[m.resource] {
			methods[m.resource] = append(methods[m.resource], m.render(f.Func))
			attached[f.Name] = true
		}
	}
	for _, d := range defs {
		switch {
		case d.alias != "":
			blocks = append(blocks, "type "+ident(d.item.Name)+" = "+ident(d.alias)+";")
		case d.item.Kind == ExternResource:
			blocks = append(blocks, resourceDef(d.item.Name, methods[d.item.Name]))
		default:
			blocks = append(blocks, typeDef(d.item.Name, d.item.Type))
		}
	}
	return blocks, attached
}

// definition is a type or resource item defined in the scope being
// printed, or (alias set) a second name for one defined elsewhere.
type definition struct {
	item  Extern
	alias string
}

// typeDef renders the definition of a type exported under name.
func typeDef(name string, t Type) string {
	if n := NameOf(t); n != "" && n != name {
		return "type " + ident(name) + " = " + ident(n) + ";"
	}
	switch t := t.(type) {
	case *Record:
		lines := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			lines[i] = ident(f.Name) + ": " + TypeString(f.Type) + ","
		}
		return block("record "+ident(name), lines)
	case *Variant:
		lines := make([]string, len(t.Cases))
		for i, c := range t.Cases {
			lines[i] = caseString(c) + ","
		}
		return block("variant "+ident(name), lines)
	case *Enum:
		return block("enum "+ident(name), suffixed(t.Cases, ","))
	case *Flags:
		return block("flags "+ident(name), suffixed(t.Names, ","))
	}
	return "type " + ident(name) + " = " + typeBody(t) + ";"
}

func resourceDef(name string, methods []string) string {
	if len(methods) == 0 {
		return "resource " + ident(name) + ";"
	}
	return block("resource "+ident(name), methods)
}

// method is a resource function as the component model names it:
// "[constructor]r", "[method]r.m" or "[static]r.m".
type method struct {
	kind, resource, name string
}

func parseMethod(s string) (method, bool) {
	for _, kind := range []string{"constructor", "method", "static"} {
		rest, ok := strings.CutPrefix(s, "["+kind+"]")
		if !ok {
			continue
		}
		if kind == "constructor" {
			return method{kind, rest, ""}, rest != ""
		}
		r, m, ok := strings.Cut(rest, ".")
		return method{kind, r, m}, ok && r != "" && m != ""
	}
	return method{}, false
}

// render prints m inside its resource block. The implicit parts WIT leaves
// out are dropped: a method's self parameter and a constructor's own<r>.
func (m method) render(f *Func) string {
	switch m.kind {
	case "constructor":
		result := f.Result
		if own, ok := result.(*Own); ok && NameOf(own) == "" && own.Resource != nil && own.Resource.Name == m.resource {
			result = nil
		}
		return "constructor" + signature(f.Params, result) + ";"
	case "method":
		params := f.Params
		if len(params) > 0 && params[0].Name == "self" {
			params = params[1:]
		}
		return ident(m.name) + ": func" + signature(params, f.Result) + ";"
	}
	return ident(m.name) + ": static func" + signature(f.Params, f.Result) + ";"
}

func signature(params []Param, result Type) string {
	ps := make([]string, len(params))
	for i, p := range params {
		ps[i] = ident(p.Name) + ": " + TypeString(p.Type)
	}
	s := "(" + strings.Join(ps, ", ") + ")"
	if result != nil {
		s += " -> " + TypeString(result)
	}
	return s
}

// typeBody spells out t's structure, ignoring any name t has.
func typeBody(t Type) string {
	switch t := t.(type) {
	case nil:
		return "_"
	case Prim:
		return Kind(t).String()
	case *List:
		return "list<" + TypeString(t.Elem) + ">"
	case *FixedList:
		return "list<" + TypeString(t.Elem) + ", " + strconv.FormatUint(uint64(t.Len), 10) + ">"
	case *Map:
		return "map<" + TypeString(t.Key) + ", " + TypeString(t.Value) + ">"
	case *Option:
		return "option<" + TypeString(t.Elem) + ">"
	case *Tuple:
		ts := make([]string, len(t.Types))
		for i, e := range t.Types {
			ts[i] = TypeString(e)
		}
		return "tuple<" + strings.Join(ts, ", ") + ">"
	case *Result:
		switch {
		case t.OK == nil && t.Err == nil:
			return "result"
		case t.Err == nil:
			return "result<" + TypeString(t.OK) + ">"
		}
		return "result<" + TypeString(t.OK) + ", " + TypeString(t.Err) + ">"
	case *Own:
		return resourceName(t.Resource)
	case *Borrow:
		return "borrow<" + resourceName(t.Resource) + ">"
	case *Record:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = ident(f.Name) + ": " + TypeString(f.Type)
		}
		return inline("record", fs)
	case *Variant:
		cs := make([]string, len(t.Cases))
		for i, c := range t.Cases {
			cs[i] = caseString(c)
		}
		return inline("variant", cs)
	case *Enum:
		return inline("enum", identsOf(t.Cases))
	case *Flags:
		return inline("flags", identsOf(t.Names))
	}
	return t.Kind().String()
}

func caseString(c Case) string {
	if c.Type == nil {
		return ident(c.Name)
	}
	return ident(c.Name) + "(" + TypeString(c.Type) + ")"
}

func resourceName(r *ResourceType) string {
	if r == nil || r.Name == "" {
		return "_"
	}
	return ident(r.Name)
}

func inline(keyword string, items []string) string {
	if len(items) == 0 {
		return keyword + " {}"
	}
	return keyword + " { " + strings.Join(items, ", ") + " }"
}

// block renders "head {" with one indented line per item and "}".
func block(head string, lines []string) string {
	if len(lines) == 0 {
		return head + " {}"
	}
	return head + " {\n" + indent(strings.Join(lines, "\n")+"\n") + "}"
}

func identsOf(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = ident(n)
	}
	return out
}

func suffixed(names []string, suffix string) []string {
	out := identsOf(names)
	for i := range out {
		out[i] += suffix
	}
	return out
}

// joinBlocks puts each block on its own lines, with a blank line next to
// every multi-line block so definitions stand apart while runs of one-line
// items stay together.
func joinBlocks(blocks []string) string {
	var b strings.Builder
	for i, s := range blocks {
		if i > 0 && (strings.Contains(s, "\n") || strings.Contains(blocks[i-1], "\n")) {
			b.WriteString("\n")
		}
		b.WriteString(s)
		b.WriteString("\n")
	}
	return b.String()
}

// indent indents every non-empty line of s by two spaces.
func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" && l != "\n" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "")
}

func externWord(k ExternKind) string {
	switch k {
	case ExternInstance:
		return "instance"
	case ExternComponent:
		return "component"
	case ExternModule:
		return "core module"
	}
	return "item"
}

// ident escapes a WIT keyword used as a name with the % prefix WIT requires.
func ident(name string) string {
	switch name {
	case "as", "async", "bool", "borrow", "char", "constructor", "enum",
		"error-context", "export", "f32", "f64", "flags", "from", "func",
		"future", "import", "include", "interface", "list", "option", "own",
		"package", "record", "resource", "result", "s8", "s16", "s32", "s64",
		"static", "stream", "string", "tuple", "type", "u8", "u16", "u32",
		"u64", "use", "variant", "with", "world":
		return "%" + name
	}
	return name
}
