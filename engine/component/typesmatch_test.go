package component

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

func TestTypesMatch(t *testing.T) {
	rec := func(name string, fields ...string) *wit.Record {
		r := &wit.Record{Named: wit.Named{Name: name}}
		for _, f := range fields {
			r.Fields = append(r.Fields, wit.Field{Name: f, Type: wit.String})
		}
		return r
	}
	res := &wit.ResourceType{Name: "r"}
	cases := []struct {
		name      string
		got, want wit.Type
		err       string
	}{
		{"same prim", wit.String, wit.String, ""},
		{"type names ignored", rec("a", "x"), rec("b", "x"), ""},
		{"field names matter", rec("a", "x"), rec("a", "y"), "field names differ"},
		{"kinds", wit.U32, wit.String, "u32 vs string"},
		{"nested", &wit.List{Elem: rec("a", "x")}, &wit.List{Elem: rec("a", "x", "y")}, "fields differ"},
		{"same resource", &wit.Own{Resource: res}, &wit.Own{Resource: res}, ""},
		{"same fixed list", &wit.FixedList{Elem: wit.U8, Len: 4}, &wit.FixedList{Elem: wit.U8, Len: 4}, ""},
		{"fixed list lengths", &wit.FixedList{Elem: wit.U8, Len: 4}, &wit.FixedList{Elem: wit.U8, Len: 5}, "list lengths differ"},
		{"fixed list is no list", &wit.FixedList{Elem: wit.U8, Len: 4}, &wit.List{Elem: wit.U8}, "vs"},
		{"same map", &wit.Map{Key: wit.String, Value: rec("a", "x")}, &wit.Map{Key: wit.String, Value: rec("b", "x")}, ""},
		{"map keys", &wit.Map{Key: wit.String, Value: wit.U8}, &wit.Map{Key: wit.U32, Value: wit.U8}, "map key"},
		{"map values", &wit.Map{Key: wit.String, Value: rec("a", "x")}, &wit.Map{Key: wit.String, Value: rec("a", "y")}, "map value"},
		{"map is no list of pairs", &wit.Map{Key: wit.String, Value: wit.U8},
			&wit.List{Elem: &wit.Tuple{Types: []wit.Type{wit.String, wit.U8}}}, "vs"},
		{"other resource", &wit.Own{Resource: &wit.ResourceType{Name: "r"}}, &wit.Own{Resource: res}, "is not the host's"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := TypesMatch(c.got, c.want)
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("TypesMatch = %v, want %q", err, c.err)
			}
		})
	}
}
