//go:build linux

package sandbox

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// nonDumpable makes the test binary what the mur binary is to its
// trampoline (cmd/mur marks itself non-dumpable before anything else),
// for the re-run of TestContainmentAsUnprivilegedRuntime.
var nonDumpable = flag.Bool("mur.nondumpable", false, "mark the test process non-dumpable, as mur's main does")

// TestMain lets the test binary act as the attacker; package init makes
// it the trampoline, as in mur.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == attackMode {
		attack(os.Args[2:])
	}
	flag.Parse()
	if *nonDumpable {
		if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
			fmt.Fprintln(os.Stderr, "prctl(PR_SET_DUMPABLE):", err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// ulimits runs sh under the trampoline and returns what it reports:
// open files, file size blocks (512 bytes), core blocks, each "soft hard".
func ulimits(t *testing.T, l Rlimits, args ...string) (string, int) {
	t.Helper()
	path, argv := Trampoline{Self: os.Args[0], Limits: l}.Command("/bin/sh",
		append([]string{"sh", "-c", "echo $(ulimit -Sn) $(ulimit -Hn) $(ulimit -Sf) $(ulimit -Hf) $(ulimit -Hc)"}, args...))
	cmd := exec.Command(path)
	cmd.Args = argv
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out)), code
}

func TestTrampolineSetsHardLimits(t *testing.T) {
	var nofile syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &nofile); err != nil {
		t.Fatal(err)
	}
	inherited := strconv.FormatUint(nofile.Max, 10)
	for _, tc := range []struct {
		name string
		l    Rlimits
		want string
	}{
		{"declared", Rlimits{ExtraProcesses: 64, OpenFiles: 40, FileSizeBytes: 5120, CPUSeconds: 30, MemoryBytes: 1 << 31}, "40 40 10 10 0"},
		{"clamped to the inherited hard limit", Rlimits{ExtraProcesses: 64, OpenFiles: 1 << 40, FileSizeBytes: 5120, CPUSeconds: 30, MemoryBytes: 1 << 31},
			inherited + " " + inherited + " 10 10 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, code := ulimits(t, tc.l)
			if code != 0 || got != tc.want {
				t.Errorf("got %q (exit %d), want %q", got, code, tc.want)
			}
		})
	}
}

func TestTrampolineFailsClosed(t *testing.T) {
	cmd := exec.Command(os.Args[0], ExecMode, "-", "1", "2", "x", "4", "5", "/bin/sh", "sh", "-c", "echo ran")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 127 || strings.Contains(string(out), "ran") || !strings.Contains(string(out), "native subprocess not started") {
		t.Errorf("bad arguments: %v\n%s", err, out)
	}
}
