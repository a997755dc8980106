package timeline

import (
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/transcript"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func ms(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }

func turn(n uint32) *uint32 { return &n }

func idx(n int) *int { return &n }

// session is a transcript of a task with a tool call, a shell call that
// failed, a hook, a compaction and a second turn whose model call never
// ended (the run was killed), then a hook outside any task.
func session() transcript.File {
	task := func(e transcript.Entry) transcript.Entry { e.TaskID = "tsk_1"; return e }
	return transcript.File{Entries: []transcript.Entry{
		{Kind: "session", Time: ms(0), SessionID: "ses_1", Capsule: "demo", Cap: transcript.Cap},
		task(transcript.Entry{Kind: "task_start", Time: ms(0), Source: "cli", Text: "count"}),
		task(transcript.Entry{Kind: "model_start", Time: ms(1), Turn: turn(0), Name: "m", Messages: 1, FirstMessage: idx(0),
			Text: `[{"role":"user","content":[{"type":"text","text":"count"}]}]`}),
		task(transcript.Entry{Kind: "model_text", Time: ms(2), Turn: turn(0), Text: "I'll"}),
		task(transcript.Entry{Kind: "model_end", Time: ms(11), Turn: turn(0), Name: "m", Status: "ok", Decision: "tool_call", DurationMS: 10,
			InputTokens: 100, OutputTokens: 20, UsageReported: true,
			Text: `{"stop_reason":"tool_call","content":[{"type":"text","text":"I'll count"},{"type":"tool_call","id":"a","name":"wc","input":{"x":1}},{"type":"thinking","text":"hm"}]}`}),
		task(transcript.Entry{Kind: "tool_start", Time: ms(12), Turn: turn(0), Name: "wc", ToolKind: "wasm", Text: `{"x":1}`}),
		task(transcript.Entry{Kind: "tool_start", Time: ms(13), Turn: turn(0), Name: "sh", ToolKind: "shell", Text: `{"command":"false"}`}),
		task(transcript.Entry{Kind: "tool_end", Time: ms(20), Turn: turn(0), Name: "wc", ToolKind: "wasm", Status: "ok", DurationMS: 8, Text: "3"}),
		task(transcript.Entry{Kind: "tool_end", Time: ms(30), Turn: turn(0), Name: "sh", ToolKind: "shell", Status: "error", DurationMS: 17,
			Text: strings.Repeat("y", 10), Truncated: true, TextBytes: 99999}),
		task(transcript.Entry{Kind: "hook_start", Time: ms(31), Turn: turn(0), Name: "guard", HookEvent: "on-tool-call"}),
		task(transcript.Entry{Kind: "hook_end", Time: ms(32), Turn: turn(0), Name: "guard", HookEvent: "on-tool-call", Status: "error", Error: "denied", DurationMS: 1}),
		task(transcript.Entry{Kind: "compaction_start", Time: ms(33), Turn: turn(1), InputTokens: 5000}),
		task(transcript.Entry{Kind: "compaction_end", Time: ms(35), Turn: turn(1), Status: "kept", DurationMS: 2}),
		task(transcript.Entry{Kind: "model_start", Time: ms(36), Turn: turn(1), Name: "m", Messages: 3, FirstMessage: idx(1),
			Text: `[{"role":"assistant","content":[]},{"role":"tool","tool_call_id":"a","is_error":false,"content":[{"type":"text","text":"3"}]}]`}),
		task(transcript.Entry{Kind: "model_text", Time: ms(40), Turn: turn(1), Text: "So far"}),
		{Kind: "hook_end", Time: ms(50), Name: "audit", HookEvent: "on-session-end", Status: "ok", DurationMS: 3},
	}, Problems: []string{"f:9: unknown kind \"x\x1b[2J\"; skipped"}}
}

func TestBuild(t *testing.T) {
	s := Build(session())
	if s.ID != "ses_1" || s.Capsule != "demo" || !s.Start.Equal(ms(0)) || !s.End.Equal(ms(50)) {
		t.Errorf("session %q %q %v %v", s.ID, s.Capsule, s.Start, s.End)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], `\x1b[2J`) {
		t.Errorf("problems %q: the escape must be shown, not sent", s.Problems)
	}
	if len(s.Tasks) != 1 {
		t.Fatalf("%d tasks", len(s.Tasks))
	}
	task := s.Tasks[0]
	if task.Status != "" || task.TurnCount() != 2 || task.Input.S != "count" {
		t.Errorf("task: status %q, %d turns, input %q", task.Status, task.TurnCount(), task.Input.S)
	}
	if in, out := task.Tokens(); in != 100 || out != 20 {
		t.Errorf("an unended task's tokens %d %d, want the turns' sums", in, out)
	}
	var got []string
	for _, st := range task.Steps {
		got = append(got, st.Class+":"+st.Name+":"+Duration(st.Duration)+":"+map[bool]string{true: "ended", false: "open"}[st.Ended])
	}
	want := []string{"model:m:10 ms:ended", "tool:wc:8.0 ms:ended", "shell:sh:17 ms:ended", "hook:guard:1.0 ms:ended",
		"compaction::2.0 ms:ended", "model:m:0.0 ms:open"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("steps\n got  %v\n want %v", got, want)
	}
	first, last := task.Steps[0], task.Steps[5]
	if first.Answer == nil || len(first.Answer.Blocks) != 3 || first.Answer.Blocks[1].Input != `{"x":1}` || first.Streamed != "" {
		t.Errorf("first model call: answer %+v, streamed %q", first.Answer, first.Streamed)
	}
	if len(first.Sent) != 1 || first.Sent[0].Role != "user" || first.Sent[0].Blocks[0].Text != "count" {
		t.Errorf("first model call sent %+v", first.Sent)
	}
	if last.Streamed != "So far" || last.FirstMessage != 1 || len(last.Sent) != 2 || last.Sent[1].ToolCallID != "a" {
		t.Errorf("open model call: streamed %q, first %d, sent %+v", last.Streamed, last.FirstMessage, last.Sent)
	}
	if sh := task.Steps[2]; !sh.Out.Truncated || sh.Out.Bytes != 99999 || sh.Status != "error" {
		t.Errorf("shell step %+v", sh)
	}
	if len(task.ByTurn) != 2 || task.ByTurn[0].InputTokens != 100 || !task.ByTurn[0].Reported || len(task.ByTurn[0].Steps) != 4 {
		t.Errorf("turns %+v", task.ByTurn[0])
	}
	if len(s.Loose) != 1 || s.Loose[0].Name != "audit" || !s.Loose[0].Start.Equal(ms(47)) {
		t.Errorf("loose steps %+v", s.Loose)
	}
	if start, end := task.Span(); !start.Equal(ms(0)) || !end.Equal(ms(36)) {
		t.Errorf("span %v – %v", start, end)
	}
}

// Text a guest or model wrote reaches the terminal with its control and
// bidirectional characters escaped, and newlines kept where it has lines.
func TestWriteTextEscapes(t *testing.T) {
	f := session()
	f.Entries[5].Text = "clear\x1b[2J\x07 \u202egnp.exe\nline two"
	f.Entries[5].Name, f.Entries[7].Name = "wc\nfake line", "wc\nfake line"
	var b strings.Builder
	if err := WriteText(&b, Build(f)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "wc\nfake"} {
		if strings.Contains(out, bad) {
			t.Errorf("the output carries %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{`clear\x1b[2J\a \u202egnp.exe` + "\n    line two", `tool wc\nfake line (wasm)`,
		"[cut: the transcript keeps the first 10 of 99999 bytes]", "model m · did not end", "streamed before the call ended:\n    So far",
		"sent 2 new messages (of 3 in the request; the others are above):\n    assistant:\n    tool (result of a): 3\n",
		"→ calls wc {\"x\":1}", "(thinking)", "hook audit on on-session-end · ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}
