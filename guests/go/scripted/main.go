//go:build wasip1

// Command scripted is the test inference driver: a reactor like toolrun
// (abi.go) exporting murmur:tool/run@0.2.0, which replays a script of
// model turns instead of calling a model. The script is the driver config
// (MURMUR_INFERENCE_DRIVER_CONFIG), {"turns": [turn, …], "hook_turns":
// [turn, …]}; the turn answered is the one at the index of the number of
// assistant messages in the request, so a replay needs no state between
// calls (drivers get a fresh store per turn). A request whose system is
// not the loop's [Capsule] prompt is a hook's run-inference call (wit.md
// §5.8: the hook's own system prompt, or none) and is answered from
// hook_turns, so the loop's numbering is unaffected by it.
// guests/README.md documents the turn keys.
//
// Every request is checked against the driver protocol (session.md §1.1–
// §1.2) and against what its turn expects; a mismatch is answered with
// status error naming it, so a test sees the host's mistake as a failed
// run with the reason in out/result.txt.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mur-go/mur/guests/go/driverkit"
)

// main is required of package main even in c-shared mode, where it never runs.
func main() {}

type script struct {
	Turns     []turn `json:"turns"`
	HookTurns []turn `json:"hook_turns"`
}

// turn is one scripted model answer and what its request must carry.
type turn struct {
	// Text is the reply's text block; Calls its tool_call blocks.
	Text  *string    `json:"text"`
	Calls []toolCall `json:"tool_calls"`
	// StopReason overrides the derived one (tool_call with calls, else
	// end_turn); with "error" the answer carries Error as its error field.
	StopReason string `json:"stop_reason"`
	// Error alone answers status error, the shipped drivers' convention.
	Error string `json:"error"`
	// ExpectResults are the tool messages the request must end with.
	ExpectResults []expectResult `json:"expect_results"`
	// ExpectSystem must occur in the request's system field.
	ExpectSystem string `json:"expect_system"`
	// ContinuationID is returned as the continuation_id metadata: the
	// driver claims to hold the conversation so far.
	ContinuationID string `json:"continuation_id"`
	// ExpectContinuationID is the continuation_id the request must carry
	// ("" : none); ExpectMessages, if set, its number of messages.
	ExpectContinuationID string `json:"expect_continuation_id"`
	ExpectMessages       *int   `json:"expect_messages"`
	// ResumesOn numbers a request from this turn when its first message
	// contains the text: a compacted history has lost the assistant
	// messages the count relies on, keeping only the compacted turn's own
	// (appended after the replacement, session.md §3.4), which is not
	// counted.
	ResumesOn string `json:"resumes_on"`
}

type toolCall struct {
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

type expectResult struct {
	ToolCallID string `json:"tool_call_id"`
	IsError    bool   `json:"is_error"`
	Text       string `json:"text"`
}

type request struct {
	ContinuationID string    `json:"continuation_id"`
	System         *string   `json:"system"`
	Messages       []message `json:"messages"`
	Tools          []any     `json:"tools"`
}

type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	IsError    bool            `json:"is_error"`
}

type block struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// answer is the driver's reply to one request: status, summary, data and
// metadata.
func answer(raw []byte) (uint8, string, string, [][2]string) {
	if loaded.err != nil {
		return fail("MURMUR_INFERENCE_DRIVER_CONFIG is not a script: " + loaded.err.Error())
	}
	s, replies := loaded.script, loaded.replies
	req, err := check(raw)
	if err != nil {
		return fail(err.Error())
	}
	turns, what := s.Turns, "turn"
	if !req.loop() {
		if len(s.HookTurns) == 0 {
			return fail("request system does not start with the [Capsule] block, and the script has no hook_turns for a hook's request")
		}
		turns, what, replies = s.HookTurns, "hook turn", loaded.hookReplies
	}
	n := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	// A continued request carries only the messages after the turn that
	// returned its id, so it is numbered from that turn.
	if req.ContinuationID != "" {
		k := -1
		for i, t := range turns {
			if t.ContinuationID == req.ContinuationID {
				k = i
				break
			}
		}
		if k < 0 {
			return fail(fmt.Sprintf("continuation_id %q was never returned by the script", req.ContinuationID))
		}
		n += k
	} else if k := resumed(turns, req.Messages); k >= 0 {
		n += k - 1
	}
	if n >= len(turns) {
		return fail(fmt.Sprintf("the script has %d %ss but the request is %s %d", len(turns), what, what, n+1))
	}
	t := turns[n]
	if t.ExpectSystem != "" && !strings.Contains(*req.System, t.ExpectSystem) {
		return fail(fmt.Sprintf("%s %d: system does not contain %q", what, n+1, t.ExpectSystem))
	}
	if req.ContinuationID != t.ExpectContinuationID {
		return fail(fmt.Sprintf("%s %d: continuation_id is %q, want %q", what, n+1, req.ContinuationID, t.ExpectContinuationID))
	}
	if t.ExpectMessages != nil && len(req.Messages) != *t.ExpectMessages {
		return fail(fmt.Sprintf("%s %d: the request has %d messages, want %d", what, n+1, len(req.Messages), *t.ExpectMessages))
	}
	if err := checkResults(req.Messages, t.ExpectResults); err != nil {
		return fail(fmt.Sprintf("%s %d: %v", what, n+1, err))
	}
	if t.Error != "" && t.StopReason == "" {
		return fail(t.Error)
	}
	var md [][2]string
	if t.ContinuationID != "" {
		md = append(md, [2]string{"continuation_id", t.ContinuationID})
	}
	return statusPassed, "scripted turn", replies[n], md
}

// resumed is the last turn whose resumes_on text the first message holds,
// or -1.
func resumed(turns []turn, msgs []message) int {
	if len(msgs) == 0 || !slices.ContainsFunc(turns, func(t turn) bool { return t.ResumesOn != "" }) {
		return -1
	}
	blocks := textBlocks(msgs[0].Content)
	k := -1
	for i, t := range turns {
		for _, b := range blocks {
			if t.ResumesOn != "" && strings.Contains(b.Text, t.ResumesOn) {
				k = i
			}
		}
	}
	return k
}

// loop reports whether the request is the agent loop's: its system is the
// [Capsule] block the loop always sends.
func (r *request) loop() bool { return strings.HasPrefix(*r.System, "[Capsule]\nName: ") }

// check parses a request and enforces the protocol's shape: compact JSON
// with sorted keys, system present (the loop's starts with the [Capsule]
// block; a hook's may be anything, even empty), tools an array, every
// content an array of blocks, the first message the user's task.
func check(raw []byte) (*request, error) {
	if !driverkit.Canonical(raw) {
		if err := checkForm(raw); err != nil {
			return nil, err
		}
	}
	req, err := parseRequest(raw)
	if err != nil {
		return nil, fmt.Errorf("request has the wrong shape: %v", err)
	}
	if req.System == nil {
		return nil, fmt.Errorf("request has no system field")
	}
	if req.Tools == nil {
		return nil, fmt.Errorf("request tools is not an array")
	}
	if req.ContinuationID == "" && (len(req.Messages) == 0 || req.Messages[0].Role != "user") {
		return nil, fmt.Errorf("request does not start with the user's task")
	}
	for i, m := range req.Messages {
		// content is one JSON value, so an array when it starts as one.
		if len(m.Content) == 0 || m.Content[0] != '[' {
			return nil, fmt.Errorf("message %d (%s) content is not an array of blocks: %s", i, m.Role, m.Content)
		}
	}
	return req, nil
}

// checkForm is the form check by encoding/json's round trip, for a
// request driverkit.Canonical did not judge canonical: the error names
// the difference.
func checkForm(raw []byte) error {
	var generic any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return fmt.Errorf("request is not JSON: %v", err)
	}
	if canon := encode(generic); canon != string(raw) {
		return fmt.Errorf("request is not compact JSON with sorted keys: got %s, want %s", raw, canon)
	}
	return nil
}

// checkResults compares the tool messages after the last assistant message
// with want (nothing to compare when want is empty).
func checkResults(msgs []message, want []expectResult) error {
	if len(want) == 0 {
		return nil
	}
	var got []message
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role == "tool"; i-- {
		got = append([]message{msgs[i]}, got...)
	}
	if len(got) != len(want) {
		return fmt.Errorf("want %d tool results, the request has %d", len(want), len(got))
	}
	for i, w := range want {
		var text []string
		for _, b := range textBlocks(got[i].Content) {
			text = append(text, b.Text)
		}
		g := expectResult{ToolCallID: got[i].ToolCallID, IsError: got[i].IsError, Text: strings.Join(text, "\n")}
		if g != w {
			return fmt.Errorf("tool result %d is %+v, want %+v", i+1, g, w)
		}
	}
	return nil
}

// reply is the response JSON for t (session.md §1.3).
func reply(t turn) string {
	content := []any{}
	if t.Text != nil {
		content = append(content, map[string]any{"type": "text", "text": *t.Text})
	}
	for _, c := range t.Calls {
		in := c.Input
		if in == nil {
			in = map[string]any{}
		}
		content = append(content, map[string]any{"type": "tool_call", "id": c.ID, "name": c.Name, "input": in})
	}
	stop := t.StopReason
	switch {
	case stop != "":
	case len(t.Calls) > 0:
		stop = "tool_call"
	default:
		stop = "end_turn"
	}
	out := map[string]any{"stop_reason": stop, "content": content}
	if stop == "error" {
		out["error"] = t.Error
	}
	return encode(out)
}

// fail is the shipped drivers' error answer.
func fail(msg string) (uint8, string, string, [][2]string) {
	return statusError, msg, encode(map[string]any{"error": msg, "stop_reason": "error"}), nil
}

// encode is compact JSON with sorted keys and no HTML escaping, the form
// the runtime must send.
func encode(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf(`{"error":%q,"stop_reason":"error"}`, err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}
