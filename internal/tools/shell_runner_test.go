package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newTestShell is a Shell over a fresh workdir allowing sh and printf,
// its environment read from host instead of the test's own.
func newTestShell(t *testing.T, host map[string]string) (*Shell, string) {
	t.Helper()
	work := t.TempDir()
	if _, ok := host["PATH"]; !ok {
		host["PATH"] = os.Getenv("PATH")
	}
	getenv := func(k string) (string, bool) { v, ok := host[k]; return v, ok }
	return NewShell(ShellConfig{
		Binaries: []ShellBinary{{Name: "sh", Interpreter: true}, {Name: "printf"}, {Name: "no-such-binary-anywhere"}},
		Workdir:  work,
		Env:      SubprocessEnv{Getenv: getenv},
	}), work
}

func TestShellRunsCommands(t *testing.T) {
	sh, _ := newTestShell(t, map[string]string{})
	for _, tc := range []struct {
		name, binary, input string
		text                string
		isError, ran        bool
		exit                int32
	}{
		{"stdout", "sh", `{"command": "  echo hi  "}`, "$ echo hi\nExit code: 0\nStdout:\nhi\n\nStderr:\n", false, true, 0},
		{"stderr and a non-zero exit are data", "sh", `{"command": "echo oops >&2; exit 3"}`,
			"$ echo oops >&2; exit 3\nExit code: 3\nStdout:\n\nStderr:\noops\n", false, true, 3},
		{"killed by a signal", "sh", `{"command": "kill -9 $$"}`, "$ kill -9 $$\nExit code: 137\nStdout:\n\nStderr:\n", false, true, 137},
		{"argv split for a non-interpreter", "printf", `{"command": "'[%s]' \"a b\" c\\ d $HOME '' |"}`,
			"$ '[%s]' \"a b\" c\\ d $HOME '' |\nExit code: 0\nStdout:\n[a b][c d][$HOME][|]\nStderr:\n", false, true, 0},
		{"no input", "sh", ``, "shell tool input.data is required", true, false, -1},
		{"not JSON", "sh", `echo hi`, "shell tool input must be valid JSON: invalid character 'e' looking for beginning of value", true, false, -1},
		{"no command", "sh", `{"cmd": "echo hi"}`, "shell tool input must include a non-empty 'command' string", true, false, -1},
		{"blank command", "sh", `{"command": " \n\t"}`, "shell tool input must include a non-empty 'command' string", true, false, -1},
		{"command not a string", "sh", `{"command": ["echo", "hi"]}`, "shell tool input must include a non-empty 'command' string", true, false, -1},
		{"not allowlisted", "bash", `{"command": "echo hi"}`, "binary 'bash' is not in capabilities.shell.allow", true, false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := sh.RunShell(context.Background(), tc.binary, tc.input)
			if err != nil {
				t.Fatal(err)
			}
			if o.Text != tc.text || o.IsError != tc.isError || o.Ran != tc.ran || (tc.ran && o.ExitCode != tc.exit) {
				t.Errorf("got %+v\nwant text %q, error %v, ran %v, exit %d", o, tc.text, tc.isError, tc.ran, tc.exit)
			}
		})
	}
	o, err := sh.RunShell(context.Background(), "no-such-binary-anywhere", `{"command": "x"}`)
	if err != nil || o.Ran || !o.IsError || !strings.Contains(o.Text, "not found on PATH") {
		t.Errorf("missing binary: %+v, %v", o, err)
	}
	if o, _ := sh.RunShell(context.Background(), "sh", `{"command": "true"}`); !filepath.IsAbs(o.Binary) {
		t.Errorf("Binary = %q, want the resolved path", o.Binary)
	}
}

// A command printing 100 KiB: the model gets 16 KiB of each stream and
// the note, logs/shell-<ms>.log gets everything, and a second call in
// the same millisecond gets a log of its own.
func TestShellTruncatesToALog(t *testing.T) {
	sh, work := newTestShell(t, map[string]string{})
	now := time.UnixMilli(1700000000123)
	sh.cfg.Now = func() time.Time { return now }
	const cmd = `i=0; while [ $i -lt 1024 ]; do printf '%099d\n' $i; i=$((i+1)); done; echo err-tail >&2`
	var full strings.Builder
	for i := range 1024 {
		fmt.Fprintf(&full, "%099d\n", i)
	}
	for i, want := range []string{"logs/shell-1700000000123.log", "logs/shell-1700000000124.log"} {
		o, err := sh.RunShell(context.Background(), "sh", commandJSON(cmd))
		if err != nil {
			t.Fatal(err)
		}
		if !o.Ran || o.IsError || !o.Truncated || o.LogPath != want || len(o.Stdout) != ShellOutputBytes || o.Stderr != "err-tail\n" {
			t.Fatalf("call %d: ran %v error %v truncated %v log %q stdout %d bytes stderr %q", i, o.Ran, o.IsError, o.Truncated, o.LogPath, len(o.Stdout), o.Stderr)
		}
		if !strings.HasSuffix(o.Text, "\nStderr:\nerr-tail\n\n\nOutput truncated. Full output written to "+want) ||
			!strings.HasPrefix(o.Text, "$ "+cmd+"\nExit code: 0\nStdout:\n"+full.String()[:ShellOutputBytes]+"\nStderr:") {
			t.Errorf("call %d: text %q…%q", i, o.Text[:80], o.Text[len(o.Text)-120:])
		}
		log, err := os.ReadFile(filepath.Join(work, want))
		if err != nil {
			t.Fatal(err)
		}
		if wantLog := "Command: sh -c " + cmd + "\nExit code: 0\n\nStdout:\n" + full.String() + "\n\nStderr:\nerr-tail\n\n"; string(log) != wantLog {
			t.Errorf("call %d: log is %d bytes, want %d", i, len(log), len(wantLog))
		}
	}
	if spills, _ := filepath.Glob(filepath.Join(work, "logs", ".shell-spill-*")); len(spills) != 0 {
		t.Errorf("spill files left behind: %v", spills)
	}
}

// commandJSON is a shell tool input for command.
func commandJSON(command string) string {
	b, _ := json.Marshal(map[string]string{"command": command})
	return string(b)
}

// The full-output log keeps at most MaxLogBytes of a stream
// (max_file_size_bytes): a command cannot make mur write a bigger file
// than it may write itself.
func TestShellLogIsCapped(t *testing.T) {
	sh, work := newTestShell(t, map[string]string{})
	sh.cfg.MaxLogBytes = 20000
	o, err := sh.RunShell(context.Background(), "sh", commandJSON("head -c 50000 /dev/zero | tr '\\0' x"))
	if err != nil || !o.Truncated {
		t.Fatalf("%+v, %v", o, err)
	}
	log, err := os.ReadFile(filepath.Join(work, o.LogPath))
	if err != nil {
		t.Fatal(err)
	}
	want := "\nStdout:\n" + strings.Repeat("x", 20000) + "\n[mur: 30000 more bytes not kept: a stream's full output is capped at capabilities.resources.max_file_size_bytes (20000)]\n\nStderr:\n\n"
	if !strings.HasSuffix(string(log), want) {
		t.Errorf("log is %d bytes and ends %q", len(log), log[max(0, len(log)-200):])
	}
}
