package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// The scripted driver parses its script once, at initialisation, so calls
// started from the snapshot share it: every call, from a snapshot or
// initialising, answers the script's turn, and a config that is not a
// script is still each call's error.
func TestScriptedDriverConfigParsedAtInit(t *testing.T) {
	e := env(t)
	req := `{"messages":[{"content":[{"text":"task","type":"text"}],"role":"user"}],"system":"[Capsule]\nName: t\n","tools":[]}`
	for _, tc := range []struct {
		name, config string
		status       tools.Status
		want         string // in data for passed, in the summary for error
	}{
		{"script", `{"turns": [{"text": "scripted answer"}]}`, tools.StatusPassed, `"text":"scripted answer"`},
		{"not a script", `{"turns": 5}`, tools.StatusError, "MURMUR_INFERENCE_DRIVER_CONFIG is not a script"},
	} {
		for _, normalInit := range []bool{false, true} {
			g := wasip2.Grants{Env: [][2]string{{"MURMUR_INFERENCE_DRIVER_CONFIG", tc.config}}}
			tool, err := tools.NewWasmTool(tools.WasmToolConfig{Name: "scripted", Component: e.Compile(t, testguest.ScriptedGo),
				Linker: e.linker, Grants: g, Limits: stage.DefaultToolLimits(), NormalInit: normalInit})
			if err != nil {
				t.Fatal(err)
			}
			for call := range 3 {
				r, err := tool.Invoke(context.Background(), tools.ToolInput{Data: &req})
				if err != nil {
					t.Fatal(err)
				}
				got := ""
				if tc.status == tools.StatusPassed && r.Data != nil {
					got = *r.Data
				} else if r.Summary != nil {
					got = *r.Summary
				}
				if r.Status != tc.status || !strings.Contains(got, tc.want) {
					t.Errorf("%s (normal init %v), call %d: status %v, %q; want %v with %q", tc.name, normalInit, call+1, r.Status, got, tc.status, tc.want)
				}
			}
		}
	}
}
