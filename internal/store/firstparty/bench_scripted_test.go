package firstparty_test

import (
	"testing"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// BenchmarkScriptedCall is one call of the scripted test driver with the
// request of the served loop's one-line task (what bench/a2a/run.sh pays
// once a task), beside a call of the computing tool toolrun-go, a Go
// guest of the same build doing almost nothing, in the same run: the
// difference is the driver's own work. Both start from the snapshot of
// their initialisation, as mur runs them.
func BenchmarkScriptedCall(b *testing.B) {
	const req = `{"max_tokens":1024,"messages":[{"content":[{"text":"say hello","type":"text"}],"role":"user"}],` +
		`"model":"scripted","params":{},"system":"[Capsule]\nName: bench\nVersion: 0.1.0","tools":[]}`
	const script = `{"turns":[{"text":"hello"}]}`
	for _, tc := range []struct {
		name, guest string
		env         [][2]string
	}{
		{"scripted", testguest.ScriptedGo, [][2]string{{"MURMUR_INFERENCE_DRIVER_CONFIG", script}}},
		{"toolrun", testguest.ToolrunGo, nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			benchInvoke(b, tools.WasmToolConfig{Name: tc.name, Component: guests.Compile(b, tc.guest),
				Grants: wasip2.Grants{Env: tc.env, Args: []string{tc.name}}, Limits: stage.DefaultToolLimits()}, req)
		})
	}
}
