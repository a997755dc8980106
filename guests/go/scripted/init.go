//go:build wasip1

package main

import (
	"encoding/json"
	"os"
)

// loadedScript is the driver config as parsed once, at initialisation,
// with each turn's reply (reply) made then too.
type loadedScript struct {
	script               script
	replies, hookReplies []string
	err                  error
}

// loaded is read-only after initialisation. The runtime starts each call
// from a snapshot of the initialised instance (keyed by the environment,
// so a different script is a different snapshot): parsing the script and
// encoding its replies here, rather than in every call, takes that work
// out of each turn, where encoding/json's reflection cost more than the
// rest of the call together.
var loaded = load()

func load() loadedScript {
	var l loadedScript
	l.err = json.Unmarshal([]byte(os.Getenv("MURMUR_INFERENCE_DRIVER_CONFIG")), &l.script)
	for _, t := range l.script.Turns {
		l.replies = append(l.replies, reply(t))
	}
	for _, t := range l.script.HookTurns {
		l.hookReplies = append(l.hookReplies, reply(t))
	}
	warm()
	return l
}

// warm runs a request of every shape through the paths a call takes (the
// reader's, encoding/json's for a failure), so what they set up lazily is
// in the snapshot; the results are discarded.
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
