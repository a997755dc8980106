package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/base/redact"
)

func TestWriterLinesInSpecOrder(t *testing.T) {
	dir := t.TempDir()
	at := time.UnixMilli(1700000000123)
	w, err := Open(dir, "ses_x", func() time.Time { return at }, nil)
	if err != nil {
		t.Fatal(err)
	}
	name, big := "echo", strings.Repeat("x", 256<<10)
	cases := []struct {
		typ  string
		rec  Record
		want string
	}{
		{TypeInference, &Inference{Turn: 2, InputTokens: 10, OutputTokens: 3, Decision: "tool_call", ToolName: &name},
			`{"event_type":"inference","session_id":"ses_x","timestamp":1700000000123,"turn":2,"input_tokens":10,"output_tokens":3,"decision":"tool_call","tool_name":"echo"}`},
		{TypeInference, &Inference{Decision: "end_turn"},
			`{"event_type":"inference","session_id":"ses_x","timestamp":1700000000123,"turn":0,"input_tokens":0,"output_tokens":0,"decision":"end_turn","tool_name":null}`},
		{TypeToolCall, &ToolCall{ToolName: "t", Input: map[string]any{"b": 1, "a": "<&>"}, InputBytes: 15, Status: "ok"},
			`{"event_type":"tool_call","session_id":"ses_x","timestamp":1700000000123,"turn":0,"tool_name":"t","input":{"a":"<&>","b":1},"input_bytes":15,"output_bytes":0,"duration_ms":0,"status":"ok"}`},
		// A line longer than the buffer jsonline keeps, then a short one.
		{TypeToolCall, &ToolCall{ToolName: "big", Input: map[string]any{}, Output: &big, Status: "ok"},
			`{"event_type":"tool_call","session_id":"ses_x","timestamp":1700000000123,"turn":0,"tool_name":"big","input":{},"input_bytes":0,"output":"` + big + `","output_bytes":0,"duration_ms":0,"status":"ok"}`},
		{TypeSessionEnd, &SessionEnd{TotalTurns: 1, ExitStatus: "ok"},
			`{"event_type":"session_end","session_id":"ses_x","timestamp":1700000000123,"total_turns":1,"total_input_tokens":0,"total_output_tokens":0,"total_tool_calls":0,"total_shell_calls":0,"duration_ms":0,"exit_status":"ok"}`},
	}
	for _, c := range cases {
		if err := w.Write(c.typ, c.rec); err != nil {
			t.Fatal(err)
		}
	}
	// Each line is in the file before Close: nothing is held back.
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, c := range cases {
		if i >= len(got) || got[i] != c.want {
			t.Errorf("line %d\n got  %s\n want %s", i, got[min(i, len(got)-1)], c.want)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(TypeSessionEnd, &SessionEnd{}); err == nil {
		t.Error("a write after Close succeeded")
	}
	lines, err := Read(bytes.NewReader(b))
	if err != nil || len(lines) != len(cases) {
		t.Fatalf("Read: %d lines, %v", len(lines), err)
	}
	if !slices.Equal(lines[0].Keys[:4], []string{"event_type", "session_id", "timestamp", "turn"}) || lines[4].Type != TypeSessionEnd {
		t.Errorf("Read kept keys %v, type %q", lines[0].Keys, lines[3].Type)
	}
}

// A link planted at trace.jsonl (guests write the session dir) is refused,
// not followed.
func TestOpenRefusesAPlantedLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if w, err := Open(dir, "ses_x", nil, nil); err == nil {
		w.Close()
		t.Fatal("Open followed a planted link")
	}
}

func TestReadRejectsACutLine(t *testing.T) {
	if _, err := Read(strings.NewReader("{\"event_type\":\"a\"}\n{\"event_")); err == nil {
		t.Error("a cut last line was accepted")
	}
}

// Every record a guest's text reaches is written without the session's
// secrets, in any field and in the form JSON gives them.
func TestWriterRedactsSecrets(t *testing.T) {
	const key, quoted = "sk-trace-secret-42", `tok"en`
	dir := t.TempDir()
	w, err := Open(dir, "ses_x", nil, redact.New(key, quoted))
	if err != nil {
		t.Fatal(err)
	}
	out, msg := "tool saw "+key, "failed: "+quoted
	for _, rec := range []struct {
		typ string
		rec Record
	}{
		{TypeToolCall, &ToolCall{ToolName: "t", Input: map[string]any{"k": key}, Output: &out, Status: "ok"}},
		{TypeInferenceRetry, &InferenceRetry{Origin: "turn", Reason: "driver_error", Error: msg}},
	} {
		if err := w.Write(rec.typ, rec.rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), key) || strings.Contains(string(b), `tok\"en`) || strings.Count(string(b), redact.Marker) != 3 {
		t.Errorf("trace.jsonl:\n%s", b)
	}
	if _, err := Read(bytes.NewReader(b)); err != nil {
		t.Errorf("the redacted trace does not parse: %v", err)
	}
}
