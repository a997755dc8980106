package tools

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

func TestResolveToolExport(t *testing.T) {
	types := NewContractTypes()
	inst := func(name string, items ...wit.Extern) wit.Extern {
		return wit.Extern{Name: name, Kind: wit.ExternInstance, Exports: items}
	}
	run := func(f *wit.Func) wit.Extern { return wit.Extern{Name: "run", Kind: wit.ExternFunc, Func: f} }
	cases := []struct {
		name    string
		exports []wit.Extern
		want    ToolContract
		errText string
	}{
		{"v1", []wit.Extern{inst("murmur:tool/run@0.1.0", run(types.Run010))}, ToolRun010, ""},
		{"both prefers 0.2.0", []wit.Extern{inst("murmur:tool/run@0.1.0", run(types.Run010)), inst("murmur:tool/run@0.2.0", run(types.Run020))}, ToolRun020, ""},
		{"unversioned", []wit.Extern{inst("murmur:tool/run", run(types.Run010))}, ToolRun010, "missing export murmur:tool/run@0.1.0#run"},
		{"no run", []wit.Extern{inst("murmur:tool/run@0.2.0")}, ToolRun020, "missing export murmur:tool/run@0.2.0#run"},
		{"0.1.0 name, 0.2.0 shape", []wit.Extern{inst("murmur:tool/run@0.1.0", run(types.Run020))}, ToolRun010,
			"failed to type-check tool 't' run export: type mismatch with results"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := resolveToolExport("t", &wit.World{Exports: c.exports}, types)
			if got != c.want {
				t.Errorf("contract = %s, want %s", got, c.want)
			}
			if c.errText == "" && err != nil || c.errText != "" && (err == nil || !strings.Contains(err.Error(), c.errText)) {
				t.Errorf("error = %v, want %q", err, c.errText)
			}
		})
	}
}
