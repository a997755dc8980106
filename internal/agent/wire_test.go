package agent

import (
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

func TestRequestEncoding(t *testing.T) {
	assistant := []any{}
	if err := decode(`[{"type":"tool_call","name":"echo","id":"c1","input":{"z":1,"a":{"y":2.50,"b":"<&>"}}},{"type":"thinking","text":"t","signature":"s"}]`, &assistant); err != nil {
		t.Fatal(err)
	}
	echo := []any{map[string]any{"parameters": map[string]any{"type": "object", "properties": map[string]any{}}, "name": "echo"}}
	round := []any{userMessage("t"), assistantMessage(assistant), toolMessage("c1", true, "boom")}
	const roundJSON = `[{"content":[{"text":"t","type":"text"}],"role":"user"},` +
		`{"content":[{"id":"c1","input":{"a":{"b":"<&>","y":2.50},"z":1},"name":"echo","type":"tool_call"},{"signature":"s","text":"t","type":"thinking"}],"role":"assistant"},` +
		`{"content":[{"text":"boom","type":"text"}],"is_error":true,"role":"tool","tool_call_id":"c1"}]`
	one := uint32(1)
	cases := []struct {
		name       string
		msgs, inv  []any
		maxTokens  *uint32
		cont       continuation
		ctx        string
		full, wire string
	}{
		{"first turn, no tools", []any{userMessage("do <it> & go")}, []any{}, nil, continuation{}, "",
			`{"max_tokens":8192,"messages":[{"content":[{"text":"do <it> & go","type":"text"}],"role":"user"}],"model":"m","params":{},"system":"S","tools":[]}`, ""},
		{"tool round, keys sorted at every level, numbers kept", round, echo, &one, continuation{}, "",
			`{"max_tokens":1,"messages":` + roundJSON + `,"model":"m","params":{},"system":"S","tools":[{"name":"echo","parameters":{"properties":{},"type":"object"}}]}`, ""},
		{"continuation sends the tail and its id", round, []any{}, &one, continuation{id: "k", contextID: "ctx", acked: 2}, "ctx",
			`{"max_tokens":1,"messages":` + roundJSON + `,"model":"m","params":{},"system":"S","tools":[]}`,
			`{"continuation_id":"k","max_tokens":1,"messages":[{"content":[{"text":"boom","type":"text"}],"is_error":true,"role":"tool","tool_call_id":"c1"}],"model":"m","params":{},"system":"S","tools":[]}`},
		{"continuation of another context is not used", round[:1], []any{}, &one, continuation{id: "k", contextID: "other", acked: 1}, "ctx",
			`{"max_tokens":1,"messages":[{"content":[{"text":"t","type":"text"}],"role":"user"}],"model":"m","params":{},"system":"S","tools":[]}`, ""},
		{"acked past the end resends everything without the id", round[:1], []any{}, &one, continuation{id: "k", acked: 3}, "",
			`{"max_tokens":1,"messages":[{"content":[{"text":"t","type":"text"}],"role":"user"}],"model":"m","params":{},"system":"S","tools":[]}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv, err := encode(c.inv)
			if err != nil {
				t.Fatal(err)
			}
			l := &loop{s: stage.LoopView{Capsule: &manifest.Capsule{Inference: &manifest.Inference{Model: "m", MaxTokens: c.maxTokens}}},
				prompt: prompt{system: "S"}, inv: c.inv, invJSON: inv, cont: c.cont}
			full, wire, err := l.payloads(&attemptRun{taskRun: &taskRun{t: Task{ContextID: c.ctx}}, msgs: c.msgs})
			if err != nil {
				t.Fatal(err)
			}
			if c.wire == "" {
				c.wire = c.full
			}
			if full.json != c.full || wire.json != c.wire {
				t.Errorf("request\n full %s\n want %s\n wire %s\n want %s", full.json, c.full, wire.json, c.wire)
			}
		})
	}
}
