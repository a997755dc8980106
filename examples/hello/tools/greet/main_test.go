package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestProtocol builds greet and pipes JSON through it the way the runtime
// does: one object on stdin, one on stdout, a scrubbed environment.
func TestProtocol(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "greet")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	home := filepath.Join(t.TempDir(), ".capsule-home")
	platform := runtime.GOOS + "/" + runtime.GOARCH

	cases := []struct {
		name, stdin string
		wantExit    int
		want        output
	}{
		{"name", `{"data":"Murmur","log_path":null}`, 0, output{"passed", "Hello, Murmur!",
			`{"greeting":"Hello, Murmur!","platform":"` + platform + `","home":".capsule-home"}`}},
		{"trimmed", `{"data":"  Ada \n","log_path":"logs/greet.log"}`, 0, output{"passed", "Hello, Ada!",
			`{"greeting":"Hello, Ada!","platform":"` + platform + `","home":".capsule-home"}`}},
		{"null data", `{"data":null,"log_path":null}`, 0, output{"passed", "Hello, world!",
			`{"greeting":"Hello, world!","platform":"` + platform + `","home":".capsule-home"}`}},
		{"blank data", `{"data":"   "}`, 0, output{"passed", "Hello, world!",
			`{"greeting":"Hello, world!","platform":"` + platform + `","home":".capsule-home"}`}},
		{"not json", `hello`, 1, output{Status: "error"}},
		{"data not a string", `{"data":42}`, 1, output{Status: "error"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin)
			cmd.Env = []string{"HOME=" + home} // the host never passes its own env
			cmd.Stdin = strings.NewReader(c.stdin)
			stdout, err := cmd.Output()
			exit := 0
			if ee, ok := err.(*exec.ExitError); ok {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if exit != c.wantExit {
				t.Errorf("exit status %d, want %d", exit, c.wantExit)
			}
			if n := strings.Count(string(stdout), "\n"); n != 1 {
				t.Errorf("stdout has %d lines, want one JSON line: %q", n, stdout)
			}
			var got output
			if err := json.Unmarshal(stdout, &got); err != nil {
				t.Fatalf("stdout is not JSON: %v: %q", err, stdout)
			}
			if c.want.Summary == "" {
				// Errors: only the status is contractual; the summary says why.
				if got.Status != c.want.Status || got.Summary == "" {
					t.Errorf("got %+v, want status %q and a summary", got, c.want.Status)
				}
				return
			}
			if got != c.want {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}
