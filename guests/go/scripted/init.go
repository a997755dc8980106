//go:build wasip1

package main

import (
	"encoding/json"
	"os"
)

// loadedScript is the driver config as parsed once, at initialisation.
type loadedScript struct {
	script script
	err    error
}

// loaded is read-only after initialisation. The runtime starts each call
// from a snapshot of the initialised instance (keyed by the environment,
// so a different script is a different snapshot): parsing the script and
// warming encoding/json's per-type caches here, rather than in every call,
// takes that work out of each turn, where it cost more than the rest of
// the call together.
var loaded = load()

func load() loadedScript {
	var l loadedScript
	l.err = json.Unmarshal([]byte(os.Getenv("MURMUR_INFERENCE_DRIVER_CONFIG")), &l.script)
	warm()
	return l
}

// warm runs a request and a reply of every shape through the JSON paths a
// call takes, for their type caches; the results are discarded.
func warm() {
	const req = `{"messages":[{"content":[{"text":"t","type":"text"}],"role":"user"},` +
		`{"content":[{"id":"c","input":{},"name":"n","type":"tool_call"}],"role":"assistant"},` +
		`{"content":[{"text":"r","type":"text"}],"is_error":false,"role":"tool","tool_call_id":"c"}],` +
		`"system":"[Capsule]\nName: w","tools":[]}`
	if r, err := check([]byte(req)); err == nil {
		_ = checkResults(r.Messages, []expectResult{{ToolCallID: "c", Text: "r"}})
		resumed([]turn{{ResumesOn: "x"}}, r.Messages)
	}
	text := "w"
	reply(turn{Text: &text, Calls: []toolCall{{ID: "c", Name: "n", Input: map[string]any{"k": "v"}}}})
	fail("w")
}
