package canon

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/engine/wit"
)

// TypeString spells t in WIT syntax for error messages: named types by
// name, anonymous ones structurally.
func TypeString(t wit.Type) string {
	var b strings.Builder
	writeType(&b, t)
	return b.String()
}

func writeType(b *strings.Builder, t wit.Type) {
	if t == nil {
		b.WriteString("_")
		return
	}
	if n := wit.NameOf(t); n != "" {
		b.WriteString(n)
		return
	}
	switch t := t.(type) {
	case *wit.List:
		b.WriteString("list<")
		writeType(b, t.Elem)
		b.WriteString(">")
	case *wit.FixedList:
		b.WriteString("list<")
		writeType(b, t.Elem)
		fmt.Fprintf(b, ", %d>", t.Len)
	case *wit.Map:
		b.WriteString("map<")
		writeType(b, t.Key)
		b.WriteString(", ")
		writeType(b, t.Value)
		b.WriteString(">")
	case *wit.Option:
		b.WriteString("option<")
		writeType(b, t.Elem)
		b.WriteString(">")
	case *wit.Result:
		b.WriteString("result")
		if t.OK != nil || t.Err != nil {
			b.WriteString("<")
			writeType(b, t.OK)
			if t.Err != nil {
				b.WriteString(", ")
				writeType(b, t.Err)
			}
			b.WriteString(">")
		}
	case *wit.Tuple:
		b.WriteString("tuple<")
		for i, e := range t.Types {
			if i > 0 {
				b.WriteString(", ")
			}
			writeType(b, e)
		}
		b.WriteString(">")
	case *wit.Record:
		b.WriteString("record { ")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name)
			b.WriteString(": ")
			writeType(b, f.Type)
		}
		b.WriteString(" }")
	case *wit.Variant:
		b.WriteString("variant { ")
		for i, c := range t.Cases {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.Name)
			if c.Type != nil {
				b.WriteString("(")
				writeType(b, c.Type)
				b.WriteString(")")
			}
		}
		b.WriteString(" }")
	case *wit.Enum:
		b.WriteString("enum { ")
		b.WriteString(strings.Join(t.Cases, ", "))
		b.WriteString(" }")
	case *wit.Flags:
		b.WriteString("flags { ")
		b.WriteString(strings.Join(t.Names, ", "))
		b.WriteString(" }")
	case *wit.Own:
		b.WriteString("own<")
		writeResource(b, t.Resource)
		b.WriteString(">")
	case *wit.Borrow:
		b.WriteString("borrow<")
		writeResource(b, t.Resource)
		b.WriteString(">")
	default:
		b.WriteString(t.Kind().String())
	}
}

func writeResource(b *strings.Builder, r *wit.ResourceType) {
	if r == nil || r.Name == "" {
		b.WriteString("_")
		return
	}
	b.WriteString(r.Name)
}
