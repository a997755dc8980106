package launch_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A signal while a tool call spins stops the run, and the run must say it
// was cancelled: the capsule itself returns normally once every later host
// call has failed, which used to print "status:  ok" and exit 0. Being
// stopped is not failing: no error line.
func TestSignalledRunEndsCancelled(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sends POSIX signals")
	}
	tests := []struct {
		name     string
		sig      syscall.Signal
		json     bool
		wantExit int
	}{
		{"SIGINT", syscall.SIGINT, false, 130},
		{"SIGTERM --json", syscall.SIGTERM, true, 143},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// No deadline of its own: only the signal can stop spin.
			p := newProject(t, "  network:\n    allow: []\n", []string{"spin", "record"})
			workdir := t.TempDir()
			if err := os.WriteFile(filepath.Join(workdir, "peer.txt"), []byte("http://127.0.0.1:9/"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--log-level", "debug", "run", "--workdir", workdir}
			if tc.json {
				args = append(args, "--json")
			}
			stdout, stderr, code, took := runSignalled(t, p.dir, tc.sig, args...)
			if code != tc.wantExit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantExit, stdout, stderr)
			}
			if took > 60*time.Second {
				t.Errorf("mur took %s to stop after the signal", took)
			}
			if l := errorLine(stderr); l != "" {
				t.Errorf("stderr reports the cancellation as an error: %q\n%s", l, stderr)
			}
			var id string
			if tc.json {
				var line map[string]any
				if err := json.Unmarshal([]byte(stdout), &line); err != nil {
					t.Fatalf("--json stdout is not one JSON object: %v\n%s", err, stdout)
				}
				if line["status"] != "cancelled" {
					t.Errorf("launch line %s lacks \"status\":\"cancelled\"", stdout)
				}
				id, _ = line["session_id"].(string)
			} else {
				if !strings.HasSuffix(stdout, "status:  cancelled\n") || strings.Contains(stdout, "status:  ok") {
					t.Errorf("stdout does not end with the cancelled status:\n%s", stdout)
				}
				id = sessionLine(stdout)
			}
			result, err := os.ReadFile(filepath.Join(workdir, ".murmur", id, "out", "result.txt"))
			if err != nil {
				t.Fatalf("no out/result.txt for session %q: %v", id, err)
			}
			if !strings.HasPrefix(string(result), "error: capsule run cancelled") {
				t.Errorf("out/result.txt = %q, want the cancellation", result)
			}
		})
	}
}

// runSignalled starts mur, sends sig once stderr shows the run inside the
// spin tool's call, and waits for mur to exit; took runs from the signal.
func runSignalled(t *testing.T, dir string, sig syscall.Signal, args ...string) (stdout, stderr string, code int, took time.Duration) {
	t.Helper()
	cmd := exec.Command(env.mur, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inTool := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(pr)
		signalled := false
		for sc.Scan() {
			errb.WriteString(sc.Text() + "\n")
			if !signalled && strings.Contains(sc.Text(), `msg="calling tool" tool=spin`) {
				signalled = true
				close(inTool)
			}
		}
		io.Copy(io.Discard, pr)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); pw.Close() }()
	var start time.Time
	select {
	case <-inTool:
		start = time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	case err := <-exited:
		<-copied
		t.Fatalf("mur exited (%v) before calling spin\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	err := <-exited
	took = time.Since(start)
	<-copied
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, took
}

// sessionLine is the id in the human "session: " line.
func sessionLine(stdout string) string {
	for _, line := range strings.Split(stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "session: "); ok {
			return v
		}
	}
	return ""
}

// errorLine is the first line of mur's stderr that reports an error
// rather than a warning or the notice of the signal: "" for none.
func errorLine(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "error[") || (strings.HasPrefix(l, "mur: ") && !strings.HasSuffix(l, ": stopping (signal again to exit at once)") &&
			!strings.HasPrefix(l, "mur: waiting for tasks over A2A at ")) {
			return l
		}
	}
	return ""
}

// endsWithStatus reports whether stdout ends with "status:  <status>",
// or for ok with it and then the agent's answer, which mur run prints
// last.
func endsWithStatus(stdout, status string) bool {
	if status != "ok" {
		return strings.HasSuffix(stdout, "status:  "+status+"\n")
	}
	i := strings.LastIndex(stdout, "status:  ")
	return i >= 0 && (i == 0 || stdout[i-1] == '\n') && strings.HasPrefix(stdout[i:], "status:  ok\n")
}
