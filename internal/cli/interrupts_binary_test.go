//go:build unix

package cli

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The mur binary, stuck where no context reaches (reading a FIFO nobody
// writes to, as --stdin does before the call), still ends on signals: at
// once on the second, or after the grace with only one, and with the
// first signal's conventional status. Every step waits on mur itself: the
// FIFO's open returns once mur has opened it (its signal handling is set
// up by then), and the second signal goes after mur reports the first.
func TestSignalsEndAStuckMurBinary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mur")
	build := exec.Command("go", "build", "-o", bin, "github.com/mur-go/mur/cmd/mur")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cases := []struct {
		name   string
		sig    syscall.Signal
		second bool
		want   int
		why    string
	}{
		{"SIGTERM twice", syscall.SIGTERM, true, 143, "second signal"},
		{"SIGINT once", syscall.SIGINT, false, 130, "still running"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(dir, "stdin"+string(rune('a'+i)))
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "wasm", "call", "--stdin", fifo, filepath.Join(dir, "absent.wasm"), "run")
			cmd.Env = []string{"HOME=" + dir, "MUR_CACHE_DIR=" + filepath.Join(dir, "cache"), "PATH=" + os.Getenv("PATH")}
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := make(chan string, 16)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					lines <- sc.Text()
				}
			}()
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			var got []string
			if tc.second {
				if !waitLine(lines, "stopping", &got) {
					cmd.Process.Kill()
					t.Fatalf("mur did not report the first signal; stderr:\n%s", strings.Join(got, "\n"))
				}
				if err := cmd.Process.Signal(tc.sig); err != nil {
					t.Fatal(err)
				}
			}
			exited := make(chan error, 1)
			go func() {
				for line := range lines {
					got = append(got, line)
				}
				exited <- cmd.Wait()
			}()
			select {
			case err = <-exited:
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatal("mur did not exit")
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.want {
				t.Fatalf("mur ended with %v, want exit status %d; stderr:\n%s", err, tc.want, strings.Join(got, "\n"))
			}
			if all := strings.Join(got, "\n"); !strings.Contains(all, tc.why) {
				t.Errorf("stderr does not say %q:\n%s", tc.why, all)
			}
		})
	}
}

// waitLine reads lines into got until one contains substr (true), they
// end, or a minute passes.
func waitLine(lines <-chan string, substr string, got *[]string) bool {
	timeout := time.After(time.Minute)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				return false
			}
			*got = append(*got, line)
			if strings.Contains(line, substr) {
				return true
			}
		case <-timeout:
			return false
		}
	}
}
