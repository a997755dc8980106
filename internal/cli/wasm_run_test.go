package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

const cmdrun = "cmdrun-go"

func TestWasmRun(t *testing.T) {
	guest := testguest.Path(cmdrun)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("from the host"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"guest flags are the guest's", []string{guest, "echo", "--dir", "-v", "x"}, 0, "--dir -v x\n", ""},
		{"stderr passes through", []string{guest, "stderr", "oops"}, 0, "", "oops\n"},
		{"exit status", []string{guest, "exit", "3"}, 1, "exiting\n", "mur: guest exited with status 1\n"},
		{"guest failure", []string{guest, "bogus"}, 1, "", `cmdrun: unknown command "bogus"`},
		{"nothing granted", []string{guest, "env"}, 0, "", ""},
		{"grants before FILE", []string{"--env", "A=1", "--dir", dir + "::/data:ro", guest, "env"}, 0, "A=1\n", ""},
		{"dir grant", []string{"--dir", dir + "::/data:ro", guest, "cat", "/data/in.txt"}, 0, "from the host", ""},
		{"stdin", []string{"--stdin", filepath.Join(dir, "in.txt"), guest, "stdin"}, 0, "from the host", ""},
		{"ungranted dir", []string{guest, "cat", "/data/in.txt"}, 1, "", "cmdrun: open /data/in.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("MUR_SECRET_FOR_TEST", "leak")
			o := mur(t, append([]string{"wasm", "run"}, tc.args...)...)
			if o.code != tc.code || o.stdout != tc.stdout && tc.stdout != "" || !strings.Contains(o.stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q",
					o.code, o.stdout, o.stderr, tc.code, tc.stdout, tc.stderr)
			}
			if tc.stdout == "" && o.code == 0 && o.stdout != "" {
				t.Errorf("stdout %q, want nothing", o.stdout)
			}
			if strings.Contains(o.stdout+o.stderr, "leak") {
				t.Error("the host environment reached the guest")
			}
		})
	}
}

func TestWasmRunArgv(t *testing.T) {
	guest := testguest.Path(cmdrun)
	o := mur(t, "wasm", "run", guest, "args", "two words", "")
	o.want(t, 0, "", "")
	var argv []string
	if err := json.Unmarshal([]byte(o.stdout), &argv); err != nil {
		t.Fatalf("stdout %q: %v", o.stdout, err)
	}
	if want := []string{guest, "args", "two words", ""}; !slices.Equal(argv, want) {
		t.Errorf("argv %q, want %q", argv, want)
	}
}

func TestWasmRunRefusesNonCommand(t *testing.T) {
	mur(t, "wasm", "run").want(t, 2, "", "mur: missing FILE")
	o := mur(t, "wasm", "run", testguest.Path(testguest.DriverCanned))
	o.want(t, 1, "", "not a WASI command: it exports no wasi:cli/run@0.2 interface (it exports murmur:tool/run@0.2.0); call one of its functions with 'mur wasm call'")
}

// "mur wasm call" keeps stdout for the result line: the guest's own output
// goes to stderr, so a guest cannot forge or corrupt the result a caller
// parses.
func TestWasmCallArgvAndResultOnlyOnStdout(t *testing.T) {
	o := call(t, cmdrun, "wasi:cli/run@0.2.12#run", "--argv", "prog", "--argv", "echo", "--argv", `{"ok":"forged"}`)
	o.want(t, 0, "", `{"ok":"forged"}`)
	if o.stdout != `{"ok":null}`+"\n" {
		t.Errorf("stdout %q, want only the result line", o.stdout)
	}
}

// An interrupted "mur wasm run" exits as a process the signal stopped.
func TestWasmRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := Run(ctx, []string{"wasm", "run", testguest.Path(cmdrun), "echo", "hi"}, &stdout, &stderr)
	if code != exitInterrupted || !strings.Contains(stderr.String(), "run cancelled") {
		t.Errorf("exit %d, stderr %q; want %d and the cancellation", code, stderr.String(), exitInterrupted)
	}
}
