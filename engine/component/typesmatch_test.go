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
