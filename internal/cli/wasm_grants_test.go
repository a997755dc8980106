package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// wasitest runs one command line in the WASI test guest (see
// guests/go/wasitest) through "mur wasm call".
func wasitest(t *testing.T, cmdline string, flags ...string) outcome {
	t.Helper()
	args := `[{"data":` + quote(cmdline) + `,"log-path":null}]`
	return call(t, "wasitest-go", toolRun, append([]string{"--args", args}, flags...)...)
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestWasmCallGoGuestThroughWASI(t *testing.T) {
	o := call(t, testguest.ToolrunGo, toolRun, "--args", `[{"data":"hello, world","log-path":"logs/run.log"}]`)
	o.want(t, 0, `{"status":"passed","summary":"echo: hello, world","data":"dlrow ,olleh","data-path":"logs/run.log","truncated":false,"metadata":[["len","12"]],"attachments":[]}`, "")
}

func TestWasmCallGrantsNothingByDefault(t *testing.T) {
	t.Setenv("MUR_SECRET_FOR_TEST", "leak")
	o := wasitest(t, "env")
	o.want(t, 0, "", "env=\n")
	if strings.Contains(o.stdout+o.stderr, "leak") {
		t.Fatalf("host environment leaked into the guest: %s", o.stdout)
	}
}

func TestWasmCallEnvAndStdin(t *testing.T) {
	wasitest(t, "env", "--env", "A=1", "--env", "B=two").want(t, 0, "", "env=A=1,B=two\n")
	in := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(in, []byte("from a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	wasitest(t, "stdin", "--stdin", in).want(t, 0, "", "stdin=from a file")
}

func TestWasmCallDirGrant(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "src.txt"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	wasitest(t, "copy /data/src.txt /data/dst.txt", "--dir", dir+"::/data").want(t, 0, "", "copied=10 err=<nil>")
	if b, err := os.ReadFile(filepath.Join(dir, "dst.txt")); err != nil || string(b) != "0123456789" {
		t.Fatalf("dst.txt: %q, %v", b, err)
	}
	o := wasitest(t, "copy /data/src.txt /data/again.txt", "--dir", dir+"::/data:ro")
	o.want(t, 0, "", "copied=10 err=")
	if _, err := os.Stat(filepath.Join(dir, "again.txt")); err == nil {
		t.Fatal("a read-only grant allowed a write")
	}
}

func TestWasmCallGuestExitStatus(t *testing.T) {
	// The preview1 adapter turns any non-zero exit code into
	// wasi:cli/exit.exit(err), which is status 1.
	wasitest(t, "exit 3").want(t, 1, "", "exiting\nmur: guest exited with status 1")
	o := wasitest(t, "exit 0")
	o.want(t, 0, "", "exiting")
	if o.stdout != "" || o.stderr != "exiting\n" {
		t.Fatalf("exit 0 printed stdout %q, stderr %q", o.stdout, o.stderr)
	}
}

func TestWasmCallGrantFlagErrors(t *testing.T) {
	tests := []struct {
		flags []string
		want  string
	}{
		{[]string{"--dir", "/no/such/dir"}, "--dir /no/such/dir: /no/such/dir is not a directory"},
		{[]string{"--env", "NOEQUALS"}, `--env: invalid environment entry "NOEQUALS"`},
		{[]string{"--allow-net", "http://"}, "--allow-net:"},
		{[]string{"--stdin", "/no/such/file"}, "--stdin:"},
	}
	for _, tt := range tests {
		o := wasitest(t, "env", tt.flags...)
		o.want(t, 2, "", tt.want)
	}
}
