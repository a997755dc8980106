package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// TestMain shares the module's test compilation cache among the tests, so
// each test guest is compiled once per run rather than once per test, and
// checks that no test wrote to the user's home. (The binary is also the
// trampoline: package sandbox's init starts it.)
func TestMain(m *testing.M) {
	dir, err := testguest.CacheDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(cacheDirEnv, dir)
	os.Exit(testguest.Main(m))
}

// outcome is what one in-process run of mur produced.
type outcome struct {
	stdout, stderr string
	err            error
	code           int
}

// mur runs the command line in-process with captured output. A panic fails
// the test instead of taking the whole test binary down.
func mur(t *testing.T, args ...string) (o outcome) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("mur %s panicked: %v", strings.Join(args, " "), r)
		}
	}()
	var stdout, stderr bytes.Buffer
	o.err = execute(context.Background(), args, &stdout, &stderr)
	o.code = report(&stderr, o.err)
	o.stdout, o.stderr = stdout.String(), stderr.String()
	return o
}

// want checks the exit code and that stdout and stderr contain the given
// substrings.
func (o outcome) want(t *testing.T, code int, stdout, stderr string) {
	t.Helper()
	if o.code != code || !strings.Contains(o.stdout, stdout) || !strings.Contains(o.stderr, stderr) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, stdout containing %q, stderr containing %q",
			o.code, o.stdout, o.stderr, code, stdout, stderr)
	}
}

// wantOutput checks the exit code and that stdout or stderr contains text.
func (o outcome) wantOutput(t *testing.T, code int, text string) {
	t.Helper()
	if o.code != code || !strings.Contains(o.stdout+o.stderr, text) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, output containing %q", o.code, o.stdout, o.stderr, code, text)
	}
}
