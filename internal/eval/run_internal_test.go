package eval

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// A case's task is its file's text, refused (so the case is never run)
// when the file is missing, not a regular file, empty or too large.
func TestReadTask(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		max        int64
		want, err  string
	}{
		{"a task", write("t.md", "Say hello.\n"), 0, "Say hello.\n", ""},
		{"at the limit", write("four.md", "four"), 4, "four", ""},
		{"over the limit", write("five.md", "fives"), 4, "", "the task is 5 bytes, more than the 4 a run takes"},
		{"missing", filepath.Join(dir, "none.md"), 0, "", "task_path '" + filepath.Join(dir, "none.md") + "' not found"},
		{"empty", write("empty.md", ""), 0, "", "is empty: an agent is never sent an empty task"},
		{"no path", "", 0, "", "task_path is empty"},
		{"a fifo", fifo, 0, "", "is not a regular file"},
		{"a directory", dir, 0, "", "is not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readTask(tc.path, tc.max)
			var d *diag.Error
			if tc.err != "" && (!errors.As(err, &d) || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if tc.err == "" && (err != nil || got != tc.want) {
				t.Errorf("got %q, %v", got, err)
			}
		})
	}
}

// The watcher keeps what the scorers judge: every task's totals, the
// tool calls that ran to their end in order, and how the session ended.
func TestWatcher(t *testing.T) {
	w := &watcher{}
	for _, e := range []observe.Event{
		{Kind: observe.TaskStart},
		{Kind: observe.ToolStart, Name: "read"},
		{Kind: observe.ToolEnd, Name: "read"},
		{Kind: observe.ToolEnd, Name: "slow", Cancelled: true},
		{Kind: observe.ModelEnd, InputTokens: 1000},
		{Kind: observe.TaskEnd, Status: "ok", Turns: 2, InputTokens: 30, OutputTokens: 7},
		{Kind: observe.ToolEnd, Name: "write"},
		{Kind: observe.TaskEnd, Status: "failed", Turns: 1, InputTokens: 3, OutputTokens: 1},
	} {
		w.Observe(e)
	}
	want := Observation{ExitStatus: "failed", Turns: 3, InputTokens: 33, OutputTokens: 8, Tools: []string{"read", "write"}}
	if got := w.observation(false, "failed"); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
	if got := w.observation(true, "ok"); got.ExitStatus != "ok" {
		t.Errorf("a run that ended ok: %+v", got)
	}
	if got := (&watcher{}).observation(false, "trapped"); got.ExitStatus != "trapped" {
		t.Errorf("a run that failed before its task: %+v", got)
	}
}

// A case's hooks get the eval variables Murmur gives them; everything
// else is the run's environment.
func TestCaseEnv(t *testing.T) {
	ds := "smoke"
	p := &plan{capsule: &manifest.Capsule{Eval: &manifest.EvalConfig{DatasetID: &ds}}, evalConfig: `{"scorers":[]}`,
		lookup: func(name string) (string, bool) { return "host-" + name, name != "UNSET" }}
	env := p.caseEnv(Case{ID: "c1"})
	for name, want := range map[string]string{envCaseID: "c1", envDatasetID: "smoke", envEvalConfig: `{"scorers":[]}`, "HOME": "host-HOME"} {
		if v, ok := env(name); !ok || v != want {
			t.Errorf("%s = %q, %v; want %q", name, v, ok, want)
		}
	}
	if _, ok := env("UNSET"); ok {
		t.Error("an unset variable is set")
	}
	p.capsule.Eval.DatasetID = nil
	if v, ok := p.caseEnv(Case{ID: "c1"})(envDatasetID); ok {
		t.Errorf("MURMUR_DATASET_ID without a dataset_id: %q", v)
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain ünïcode": "plain ünïcode",
		"\x1b[2Jclear":  `\x1b[2Jclear`,
		"tab\there":     `tab\there`,
		"bad\xffbyte":   `bad\xffbyte`,
		"c1\u0085":      `c1\u0085`,
		"rtl\u202eoff":  `rtl\u202eoff`,
		"del\x7f":       `del\x7f`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// A dataset is the user's own file: read through a link, never from a
// FIFO.
func TestReadDataset(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "cases.jsonl")
	if err := os.WriteFile(real, []byte(`{"case_id": "c", "task_path": "t.md"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "eval.jsonl")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if cases, err := readDataset(link); err != nil || len(cases) != 1 {
		t.Errorf("a linked dataset: %v, %v", cases, err)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readDataset(fifo); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("a fifo: %v", err)
	}
}
