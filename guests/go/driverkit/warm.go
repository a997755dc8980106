package driverkit

import (
	"bytes"
	"io"
	"strings"

	"github.com/mur-go/mur/guests/go/wasihttp"
)

// Samples are a provider's answers to WarmRequest, whole and as events,
// which Warm hands Run in place of the network.
type Samples struct {
	Whole, Events string
}

// WarmRequest is a runtime request with every kind of message and block
// the translation handles: system prompt, tools, params, text, a tool
// call and its result.
const WarmRequest = `{"max_tokens":16,"messages":[` +
	`{"content":[{"text":"hi","type":"text"}],"role":"user"},` +
	`{"content":[{"text":"calling","type":"text"},{"id":"c1","input":{"q":"x"},"name":"look","type":"tool_call"}],"role":"assistant"},` +
	`{"content":[{"text":"found","type":"text"}],"is_error":false,"role":"tool","tool_call_id":"c1"}],` +
	`"model":"m","params":{"temperature":0},"system":"s",` +
	`"tools":[{"description":"d","name":"look","parameters":{"type":"object"}}]}`

// Warm answers WarmRequest through p with the config in env and s in
// place of the network. A driver calls it at initialisation: mur starts
// every call from a snapshot of the initialised instance, so what a
// call's first use of the runtime and of the translation builds lazily
// (the heap's growth to the spans a call needs, size-class spans, a
// deeper stack) is built once, before the snapshot, instead of in every
// call: about 0.8 ms a call in wasm. The result says whether the samples
// went through the whole translation.
func Warm(p Provider, env Env, s Samples) Result {
	env.Endpoint = "http://warm.invalid"
	return Run(p, env, sampleDoer(s), NoEmitter{}, []byte(WarmRequest))
}

// Headroom is the free run of heap a driver leaves in its snapshot
// (cabi.Headroom). A call allocates up to about three times its request in
// a few large blocks (the block the host lowers it into, its unquoted
// texts, the provider's request body), so a conversation up to about
// 400 KiB is answered without growing memory and its store is reused; a
// larger one grows it, and its store is closed as before.
const Headroom = 1280 << 10

// sampleDoer answers every request with a sample: events when the
// request asks for them.
type sampleDoer Samples

func (s sampleDoer) Do(req *wasihttp.Request) (*wasihttp.Response, error) {
	body, ctype := s.Whole, "application/json"
	for _, kv := range req.Header {
		if strings.EqualFold(kv[0], "accept") && strings.Contains(kv[1], "text/event-stream") {
			body, ctype = s.Events, "text/event-stream"
		}
	}
	return &wasihttp.Response{Status: 200, Header: map[string][]string{"content-type": {ctype}},
		Body: io.NopCloser(bytes.NewReader([]byte(body)))}, nil
}
