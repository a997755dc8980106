package transcript

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/confined"
)

// A file a guest wrote is read line by line: each line that is not an
// entry of this format is skipped and named, and the rest is read.
func TestReadReportsBadLines(t *testing.T) {
	const good = `{"kind":"tool_end","time":"2026-01-02T03:04:05Z","turn":1,"name":"wc","text":"ok"}`
	for _, tc := range []struct {
		name, file string
		entries    int
		problem    string
	}{
		{"good", good + "\n" + good + "\n", 2, ""},
		{"last line without newline", good + "\n" + good, 2, ""},
		{"cut short", good + "\n" + good[:30], 1, `:2: not a JSON object`},
		{"not JSON", "hello\n" + good + "\n", 1, `:1: not a JSON object`},
		{"empty line", "\n" + good + "\n", 1, `:1: not a JSON object`},
		{"an array", "[1]\n" + good + "\n", 1, `:1: not a transcript entry`},
		{"null", "null\n" + good + "\n", 1, `:1: no "kind"`},
		{"unknown kind", `{"kind":"<b>x","time":"2026-01-02T03:04:05Z"}` + "\n" + good + "\n", 1, `:1: unknown kind "<b>x"`},
		{"no time", `{"kind":"tool_end"}` + "\n", 0, `:1: no "time"`},
		{"wrong type", `{"kind":"tool_end","time":"2026-01-02T03:04:05Z","turn":"1"}` + "\n", 0, `:1: not a transcript entry`},
		{"negative tokens", `{"kind":"model_end","time":"2026-01-02T03:04:05Z","input_tokens":-1}` + "\n", 0, `:1: not a transcript entry`},
		{"negative duration", `{"kind":"model_end","time":"2026-01-02T03:04:05Z","duration_ms":-1}` + "\n", 0, `:1: duration_ms -1 is not a duration`},
		{"huge duration", `{"kind":"model_end","time":"2026-01-02T03:04:05Z","duration_ms":1e300}` + "\n", 0, `:1: duration_ms 1e+300 is not a duration`},
		{"first message past the request", `{"kind":"model_start","time":"2026-01-02T03:04:05Z","messages":2,"first_message":3}` + "\n", 0, `first_message 3 is not within`},
		{"long line", `{"kind":"tool_end","time":"2026-01-02T03:04:05Z","text":"` + strings.Repeat("x", MaxLine) + "\"}\n" + good + "\n", 1, `:1: the line is longer than 1024 KiB; skipped`},
		{"long last line", good + "\n" + strings.Repeat("x", MaxLine+5), 1, `:2: the line is longer than 1024 KiB; skipped`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(strings.NewReader(tc.file), "tr.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Entries) != tc.entries {
				t.Errorf("%d entries, want %d", len(f.Entries), tc.entries)
			}
			switch {
			case tc.problem == "" && len(f.Problems) != 0:
				t.Errorf("problems %q, want none", f.Problems)
			case tc.problem != "" && (len(f.Problems) != 1 || !strings.Contains(f.Problems[0], tc.problem) || !strings.HasPrefix(f.Problems[0], "tr.jsonl:")):
				t.Errorf("problems %q, want one containing %q", f.Problems, tc.problem)
			}
		})
	}
}

// A file past MaxBytes is read up to there, and the problem says the rest
// was not; a flood of bad lines is listed up to a point.
func TestReadBounds(t *testing.T) {
	line := `{"kind":"tool_end","time":"2026-01-02T03:04:05Z","text":"` + strings.Repeat("x", 1<<19) + "\"}\n"
	big := strings.Repeat(line, MaxBytes/len(line)+2)
	f, err := Read(strings.NewReader(big), "tr.jsonl")
	if err != nil || len(f.Entries) != MaxBytes/len(line) || len(f.Problems) != 1 || !strings.Contains(f.Problems[0], "larger than 256 MiB") {
		t.Errorf("%d entries, problems %q, %v", len(f.Entries), f.Problems, err)
	}
	f, _ = Read(strings.NewReader(strings.Repeat("x\n", 1000)), "tr.jsonl")
	if len(f.Problems) != maxProblems+1 || !strings.Contains(f.Problems[maxProblems], "more lines could not be read") {
		t.Errorf("%d problems, last %q", len(f.Problems), f.Problems[len(f.Problems)-1])
	}
}

// ReadSession refuses a link planted at transcript.jsonl and anything but
// a regular file.
func TestReadSessionRefusesALink(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	secret := filepath.Join(elsewhere, "secret")
	if err := os.WriteFile(secret, []byte(`{"kind":"session","time":"2026-01-02T03:04:05Z","capsule":"stolen"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if f, err := ReadSession(dir); !errors.Is(err, confined.ErrSymlink) || len(f.Entries) != 0 {
		t.Errorf("ReadSession through a link: %v, %d entries", err, len(f.Entries))
	}
	dir = t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSession(dir); !errors.Is(err, confined.ErrNotRegular) {
		t.Errorf("ReadSession of a directory: %v", err)
	}
}

// What the writer writes, the reader reads back whole.
func TestReadWhatWasWritten(t *testing.T) {
	dir := t.TempDir()
	w := open(t, dir, nil)
	w.Close()
	f, err := ReadSession(dir)
	if err != nil || len(f.Problems) != 0 || len(f.Entries) != 1 {
		t.Fatalf("%+v, %v", f, err)
	}
	if e := f.Entries[0]; e.Kind != KindSession || e.SessionID != "ses_x" || e.Capsule != "demo" || e.Cap != Cap || e.Version != Version || !e.Time.Equal(t0) {
		t.Errorf("session line %+v", e)
	}
}

// FuzzRead: no input makes Read fail, panic or hand out an entry the
// viewers cannot rely on.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"kind":"session","time":"2026-01-02T03:04:05Z","version":1,"session_id":"ses_x","cap":65536}` + "\n"))
	f.Add([]byte(`{"kind":"model_start","time":"2026-01-02T03:04:05Z","turn":0,"messages":2,"first_message":1,"text":"[]"}` + "\n" + `{"kind":"tool_end"`))
	f.Add([]byte(`{"kind":"tool_end","time":"2026-01-02T03:04:05Z","exit_code":-1,"duration_ms":0.5,"truncated":true,"text_bytes":9}`))
	f.Add([]byte("\n\n\x00{}\r\n[]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := Read(bytes.NewReader(b), "f")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tr.Entries {
			if !knownKind(e.Kind) || e.Time.IsZero() || e.Duration() < 0 {
				t.Fatalf("entry %+v", e)
			}
			if e.FirstMessage != nil && (*e.FirstMessage < 0 || *e.FirstMessage > e.Messages) {
				t.Fatalf("first_message %d of %d", *e.FirstMessage, e.Messages)
			}
		}
		if len(tr.Problems) > maxProblems+1 {
			t.Fatalf("%d problems", len(tr.Problems))
		}
	})
}
