package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/redact"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func open(t *testing.T, dir string, secrets *redact.Redactor) *Writer {
	t.Helper()
	w, err := Open(dir, Options{SessionID: "ses_x", Capsule: "demo", Secrets: secrets, Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// lines is the file's lines as written, each checked to be one JSON
// object.
func lines(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, l := range out {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, l)
		}
	}
	return out
}

// Each step is one line, in the file as soon as it is observed, with the
// fields of its kind; a model request is recorded only from the messages
// the task's previous request did not have.
func TestWriterLines(t *testing.T) {
	dir := t.TempDir()
	w := open(t, dir, nil)
	code := int32(3)
	task := func(e observe.Event) observe.Event { e.TaskID, e.ContextID = "t1", "c1"; return e }
	events := []struct {
		e    observe.Event
		want []string
	}{
		{task(observe.Event{Kind: observe.TaskStart, Time: at(0), Source: "cli", Input: "count <words>"}),
			[]string{`{"kind":"task_start","time":"2026-01-02T03:04:05Z","task_id":"t1","context_id":"c1","source":"cli","text":"count <words>"}`}},
		{task(observe.Event{Kind: observe.ModelStart, Time: at(1), Turn: 0, Name: "m", InputTokens: 12, Input: `[{"role":"user","content":[{"type":"text","text":"count"}]}]`}),
			[]string{`{"kind":"model_start","time":"2026-01-02T03:04:05.001Z","task_id":"t1","context_id":"c1","turn":0,"name":"m","input_tokens":12,"messages":1,"first_message":0,"text":"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"count\"}]}]"}`}},
		{task(observe.Event{Kind: observe.ModelEnd, Time: at(5), Turn: 0, Name: "m", Status: "ok", Decision: "tool_call", StopReason: "tool_call",
			InputTokens: 10, OutputTokens: 4, UsageReported: true, Duration: 4*time.Millisecond + 250*time.Microsecond, Output: `{"content":[]}`}),
			[]string{`{"kind":"model_end","time":"2026-01-02T03:04:05.005Z","task_id":"t1","context_id":"c1","turn":0,"name":"m","status":"ok","decision":"tool_call","stop_reason":"tool_call","input_tokens":10,"output_tokens":4,"usage_reported":true,"duration_ms":4.25,"text":"{\"content\":[]}"}`}},
		{task(observe.Event{Kind: observe.ToolStart, Time: at(6), Turn: 0, Name: "wc", ToolKind: "shell", Input: `{"command":"-l x"}`}),
			[]string{`{"kind":"tool_start","time":"2026-01-02T03:04:05.006Z","task_id":"t1","context_id":"c1","turn":0,"name":"wc","tool_kind":"shell","text":"{\"command\":\"-l x\"}"}`}},
		{task(observe.Event{Kind: observe.ToolEnd, Time: at(9), Turn: 0, Name: "wc", ToolKind: "shell", Status: "error", Duration: 3 * time.Millisecond, ExitCode: &code, Output: "no such file"}),
			[]string{`{"kind":"tool_end","time":"2026-01-02T03:04:05.009Z","task_id":"t1","context_id":"c1","turn":0,"name":"wc","tool_kind":"shell","status":"error","duration_ms":3,"exit_code":3,"text":"no such file"}`}},
		// The second request repeats the first message: only the two new
		// ones are written.
		{task(observe.Event{Kind: observe.ModelStart, Time: at(10), Turn: 1, Name: "m", Input: `[{"role":"user","content":[{"type":"text","text":"count"}]},{"role":"assistant","content":[]},{"role":"tool","tool_call_id":"a"}]`}),
			[]string{`{"kind":"model_start","time":"2026-01-02T03:04:05.01Z","task_id":"t1","context_id":"c1","turn":1,"name":"m","messages":3,"first_message":1,"text":"[{\"role\":\"assistant\",\"content\":[]},{\"role\":\"tool\",\"tool_call_id\":\"a\"}]"}`}},
		// A request that does not extend it (a compaction replaced the
		// history) is written whole.
		{task(observe.Event{Kind: observe.ModelStart, Time: at(11), Turn: 2, Name: "m", Input: `[{"role":"user","content":[{"type":"text","text":"summary"}]}]`}),
			[]string{`{"kind":"model_start","time":"2026-01-02T03:04:05.011Z","task_id":"t1","context_id":"c1","turn":2,"name":"m","messages":1,"first_message":0,"text":"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"summary\"}]}]"}`}},
		{task(observe.Event{Kind: observe.ModelEnd, Time: at(12), Turn: 2, Name: "m", Status: "error", Err: "HTTP 500"}),
			[]string{`{"kind":"model_end","time":"2026-01-02T03:04:05.012Z","task_id":"t1","context_id":"c1","turn":2,"name":"m","status":"error","error":"HTTP 500"}`}},
		{task(observe.Event{Kind: observe.HookStart, Time: at(13), Turn: 2, Name: "guard", HookEvent: "on-task-end"}),
			[]string{`{"kind":"hook_start","time":"2026-01-02T03:04:05.013Z","task_id":"t1","context_id":"c1","turn":2,"name":"guard","hook_event":"on-task-end"}`}},
		{task(observe.Event{Kind: observe.TaskEnd, Time: at(20), Status: "failed", Turns: 3, InputTokens: 22, OutputTokens: 4, Duration: 20 * time.Millisecond, Output: "HTTP 500"}),
			[]string{`{"kind":"task_end","time":"2026-01-02T03:04:05.02Z","task_id":"t1","context_id":"c1","status":"failed","input_tokens":22,"output_tokens":4,"turns":3,"duration_ms":20,"text":"HTTP 500"}`}},
	}
	want := []string{`{"kind":"session","time":"2026-01-02T03:04:05Z","version":1,"session_id":"ses_x","capsule":"demo","cap":65536}`}
	if got := lines(t, dir); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("after Open: %q", got)
	}
	for _, ev := range events {
		w.Observe(ev.e)
		want = append(want, ev.want...)
		// Nothing is held back: the line is in the file once Observe returns.
		got := lines(t, dir)
		if len(got) != len(want) || got[len(got)-1] != want[len(want)-1] {
			t.Fatalf("after %s:\n got  %s\n want %s", ev.e.Kind, got[len(got)-1], want[len(want)-1])
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w.Observe(observe.Event{Kind: observe.TaskStart, Time: at(30)})
	if got := lines(t, dir); len(got) != len(want) {
		t.Errorf("an event after Close was written: %q", got[len(got)-1])
	}
	if fi, err := os.Stat(filepath.Join(dir, FileName)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v (%v), want 0600: the transcript holds all the model and the tools said", fi.Mode(), err)
	}
}

// A text longer than the cap is cut at a character boundary, and the
// entry says so and how long it was; no secret is written, whole or
// split by the cut, in any field.
func TestWriterCapsAndRedacts(t *testing.T) {
	const secret = "sk-secret-0123456789"
	dir := t.TempDir()
	w := open(t, dir, redact.New(secret))
	// The secret straddles the cap: cutting before redacting would leave
	// its first half in the file.
	long := strings.Repeat("é", Cap/2-4) + secret + "tail"
	w.Observe(observe.Event{Kind: observe.ToolEnd, Time: at(1), TaskID: "t", Name: "n", Output: long, Err: "key " + secret})
	w.Observe(observe.Event{Kind: observe.TaskEnd, Time: at(2), TaskID: secret, Output: strings.Repeat("x", Cap+10)})
	w.Close()
	b, _ := os.ReadFile(filepath.Join(dir, FileName))
	if bytes.Contains(b, []byte(secret)) || bytes.Contains(b, []byte(secret[:8])) {
		t.Fatalf("the secret reached the transcript:\n%s", b)
	}
	f, err := Read(bytes.NewReader(b), FileName)
	if err != nil || len(f.Problems) != 0 || len(f.Entries) != 3 {
		t.Fatalf("Read: %d entries, problems %v, %v", len(f.Entries), f.Problems, err)
	}
	tool, end := f.Entries[1], f.Entries[2]
	wantTool := strings.Repeat("é", Cap/2-4) + "[REDACTED]"[:8]
	if tool.Text != wantTool || !tool.Truncated || tool.Cap != Cap || tool.TextBytes != len(strings.Repeat("é", Cap/2-4)+redact.Marker+"tail") ||
		tool.Error != "key "+redact.Marker || tool.ErrorBytes != 0 {
		t.Errorf("tool_end: text %d bytes ending %q, truncated %v, cap %d, text_bytes %d, error %q", len(tool.Text), tool.Text[len(tool.Text)-12:],
			tool.Truncated, tool.Cap, tool.TextBytes, tool.Error)
	}
	if len(end.Text) != Cap || end.TextBytes != Cap+10 || !end.Truncated || end.TaskID != redact.Marker {
		t.Errorf("task_end: text %d bytes, text_bytes %d, truncated %v, task %q", len(end.Text), end.TextBytes, end.Truncated, end.TaskID)
	}
}

// A streamed answer is written as it streams, in pieces of at most the
// flush size or age, one kind (text, thinking) at a time; model_end's
// whole answer replaces what is still held, and a call that failed
// keeps it.
func TestWriterStreamedAnswer(t *testing.T) {
	dir := t.TempDir()
	w := open(t, dir, nil)
	piece := func(ms int, text string, thinking bool) observe.Event {
		return observe.Event{Kind: observe.ModelText, Time: at(ms), TaskID: "t", Text: text, Thinking: thinking}
	}
	steps := []struct {
		e       observe.Event
		written []string // the kinds and texts of the lines it writes
	}{
		{piece(0, "hmm ", true), nil},
		{piece(1, "so", false), []string{"model_text thinking:hmm "}},
		{piece(2, strings.Repeat("a", streamFlush), false), []string{"model_text:so" + strings.Repeat("a", streamFlush)}},
		{piece(3, "b", false), nil},
		{piece(3+int(streamWait/time.Millisecond), "c", false), []string{"model_text:bc"}},
		{piece(4000, "d", false), nil},
		{observe.Event{Kind: observe.ModelEnd, Time: at(4001), TaskID: "t", Output: "whole"}, []string{"model_end:whole"}},
		{piece(5000, "e", false), nil},
		{observe.Event{Kind: observe.ModelEnd, Time: at(5001), TaskID: "t", Status: "error", Err: "cut"}, []string{"model_text:e", "model_end:"}},
		{piece(6000, "f", false), nil},
		{observe.Event{Kind: observe.TaskEnd, Time: at(6001), TaskID: "t"}, []string{"model_text:f", "task_end:"}},
		{piece(7000, "g", false), nil},
	}
	n := 1
	for i, s := range steps {
		w.Observe(s.e)
		got := lines(t, dir)[n:]
		n += len(got)
		var kinds []string
		for _, l := range got {
			var en Entry
			json.Unmarshal([]byte(l), &en)
			k := en.Kind
			if en.Thinking {
				k += " thinking"
			}
			kinds = append(kinds, k+":"+en.Text)
		}
		if strings.Join(kinds, "|") != strings.Join(s.written, "|") {
			t.Errorf("step %d wrote %q, want %q", i, kinds, s.written)
		}
	}
	// What is held at Close is written.
	w.Close()
	if got := lines(t, dir)[n:]; len(got) != 1 || !strings.Contains(got[0], `"text":"g"`) {
		t.Errorf("Close wrote %q, want the held piece", got)
	}
}

// The transcript is opened only as a new regular file: a link planted at
// its name (followed, it would write where the link points) and a file
// planted there (its lines would pass for the run's) are refused and
// left as they were.
func TestOpenRefusesAPlantedFile(t *testing.T) {
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, plant := range map[string]func(p string) error{
		"link":         func(p string) error { return os.Symlink(victim, p) },
		"dangling":     func(p string) error { return os.Symlink(filepath.Join(t.TempDir(), "new"), p) },
		"regular file": func(p string) error { return os.WriteFile(p, []byte(`{"kind":"session"}`+"\n"), 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, FileName)
			if err := plant(p); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Lstat(p)
			if w, err := Open(dir, Options{}); err == nil {
				w.Close()
				t.Fatal("Open took a planted transcript.jsonl")
			}
			after, _ := os.Lstat(p)
			if b, _ := os.ReadFile(victim); string(b) != "keep" || after.Size() != before.Size() || after.Mode() != before.Mode() {
				t.Errorf("the planted file changed: victim %q, %v → %v", b, before.Mode(), after.Mode())
			}
		})
	}
}
