package drivertest

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/mur-go/mur/guests/go/anthropic"
	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/openai"
	"github.com/mur-go/mur/guests/go/wasihttp"
)

// toolConversation is a runtime request of about n bytes: a task, then
// rounds of an assistant's text and tool call and the tool's output, whose
// lines are escaped as tool output usually is.
func toolConversation(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"max_tokens":64,"messages":[{"content":[{"text":"summarise every file","type":"text"}],"role":"user"}`)
	output := strings.Repeat(`a line of \"tool\" output\n`, 250)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `,{"content":[{"text":"reading f%d","type":"text"},{"id":"c%d","input":{"path":"f%d.txt"},"name":"cat","type":"tool_call"}],"role":"assistant"}`, i, i, i)
		fmt.Fprintf(&b, `,{"content":[{"text":"%s","type":"text"}],"is_error":false,"role":"tool","tool_call_id":"c%d"}`, output, i)
	}
	b.WriteString(`],"model":"m","params":{},"system":"[Capsule]\nName: t","tools":[{"description":"read a file","name":"cat","parameters":{"type":"object"}}]}`)
	return []byte(b.String())
}

// sampled answers every request with body, whole.
type sampled string

func (s sampled) Do(*wasihttp.Request) (*wasihttp.Response, error) {
	return &wasihttp.Response{Status: 200, Header: map[string][]string{"content-type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader([]byte(s)))}, nil
}

// A driver call of a 256 KiB tool conversation fits in the free heap the
// drivers leave in their snapshot (driverkit.Headroom), with the block
// the host lowers the request into and a quarter to spare for the holes
// between blocks, so the store it ran in is reused. The allocations are
// counted natively: the translation is the same code, with the same
// pointer size, as in wasm.
func TestCallFitsHeadroom(t *testing.T) {
	req := toolConversation(256 << 10)
	for _, tc := range []struct {
		name string
		p    driverkit.Provider
		s    driverkit.Samples
	}{{"openai", openai.Provider{}, openai.Samples}, {"anthropic", anthropic.Provider{}, anthropic.Samples}} {
		t.Run(tc.name, func(t *testing.T) {
			env := driverkit.Env{Endpoint: "http://x.invalid", Config: `{"stream":false}`}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := driverkit.Run(tc.p, env, sampled(tc.s.Whole), driverkit.NoEmitter{}, req)
			runtime.ReadMemStats(&after)
			if r.Status != driverkit.StatusPassed {
				t.Fatalf("status %d: %s", r.Status, r.Summary)
			}
			used := len(req) + int(after.TotalAlloc-before.TotalAlloc)
			if limit := driverkit.Headroom * 3 / 4; used > limit {
				t.Errorf("a call of a %d-byte conversation uses %d bytes with its request, more than %d", len(req), used, limit)
			}
		})
	}
}
