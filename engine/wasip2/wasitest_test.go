package wasip2_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
)

// runGo runs the Go WASI guest's main with args under g and returns its
// stdout, stderr and exit status.
func runGo(t testing.TB, g wasip2.Grants, limits component.Limits, args ...string) (stdout, stderr string, code uint32, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	g.Args = append([]string{"wasitest"}, args...)
	if g.Stdout.W == nil {
		g.Stdout.W = &out
	}
	if g.Stderr.W == nil {
		g.Stderr.W = &errOut
	}
	inst, _ := instantiate(t, "wasitest-go", g, limits)
	f, ferr := inst.Func(runExport)
	if ferr != nil {
		t.Fatal(ferr)
	}
	_, err = f.Call(context.Background(), []any{wit.Some(strings.Join(args, " ")), wit.None()})
	var exit *wasip2.ExitError
	if errors.As(err, &exit) {
		code, err = exit.Code, nil
	}
	return out.String(), errOut.String(), code, err
}

const runExport = "murmur:tool/run@0.2.0#run"

func TestGoGuestEnv(t *testing.T) {
	out, _, code, err := runGo(t, wasip2.Grants{Env: [][2]string{{"B", "2"}, {"A", "1"}}}, component.Limits{}, "env")
	if err != nil || code != 0 {
		t.Fatalf("code %d err %v\n%s", code, err, out)
	}
	if !strings.Contains(out, "args=wasitest,env\n") || !strings.Contains(out, "env=A=1,B=2\n") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestGoGuestNothingInherited(t *testing.T) {
	t.Setenv("WASIP2_SECRET", "leak")
	out, _, _, err := runGo(t, wasip2.Grants{}, component.Limits{}, "env")
	if err != nil || !strings.Contains(out, "env=\n") {
		t.Fatalf("err %v output:\n%s", err, out)
	}
}

func TestGoGuestExitCodes(t *testing.T) {
	// The preview1 adapter reports any non-zero proc_exit as exit(err),
	// which is status 1.
	for arg, want := range map[int]uint32{0: 0, 3: 1, 255: 1} {
		out, _, code, err := runGo(t, wasip2.Grants{}, component.Limits{}, "exit", fmt.Sprint(arg))
		if err != nil || code != want || out != "exiting\n" {
			t.Errorf("exit %d: code %d err %v out %q", want, code, err, out)
		}
	}
}

func TestGoGuestStdio(t *testing.T) {
	out, _, _, err := runGo(t, wasip2.Grants{Stdin: []byte("from host")}, component.Limits{}, "stdin")
	if err != nil || out != "stdin=from host err=<nil>\n" {
		t.Fatalf("err %v out %q", err, out)
	}
	_, errOut, _, err := runGo(t, wasip2.Grants{}, component.Limits{}, "stderr", "to", "stderr")
	if err != nil || errOut != "to stderr\n" {
		t.Fatalf("err %v stderr %q", err, errOut)
	}
}

func TestGoGuestOutputCap(t *testing.T) {
	var w, tee bytes.Buffer
	g := wasip2.Grants{Stdout: wasip2.Output{W: &w, Tee: &tee, Max: 5}}
	inst, wctx := instantiate(t, "wasitest-go", g, component.Limits{})
	f, _ := inst.Func(runExport)
	if _, err := f.Call(context.Background(), []any{wit.Some("random"), wit.None()}); err != nil {
		t.Fatal(err)
	}
	if w.String() != "rando" || tee.String() != "rando" {
		t.Fatalf("w %q tee %q", w.String(), tee.String())
	}
	if so, _ := wctx.Truncated(); !so {
		t.Fatal("Truncated() = false")
	}
}

func TestGoGuestClockRandom(t *testing.T) {
	out, _, _, err := runGo(t, wasip2.Grants{}, component.Limits{}, "clock")
	if err != nil || out != "slept=true year-ok=true\n" {
		t.Fatalf("clock: err %v out %q", err, out)
	}
	out, _, _, err = runGo(t, wasip2.Grants{}, component.Limits{}, "random")
	if err != nil || out != "random=32 err=<nil>\n" {
		t.Fatalf("random: err %v out %q", err, out)
	}
}

func TestGoGuestFiles(t *testing.T) {
	dir := t.TempDir()
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: dir, Guest: "/data"}}}
	out, _, code, err := runGo(t, g, component.Limits{}, "files", "/data")
	want := "content=hello, world\nsize=12 dir=false\nlink=b.txt\nvia-link=hello, world\n" +
		"size=5 mtime=1000000000\nentries=b.txt,link\ngone=true\n"
	if err != nil || code != 0 || out != want {
		t.Fatalf("code %d err %v\n got %q\nwant %q", code, err, out, want)
	}
}

// TestGoGuestDeadline: a guest blocked in poll (a long sleep) is released
// at the store's deadline.
func TestGoGuestDeadline(t *testing.T) {
	start := time.Now()
	_, _, _, err := runGo(t, wasip2.Grants{}, component.Limits{Deadline: 300 * time.Millisecond}, "sleep", "1h")
	var de *component.DeadlineError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v, want a deadline error", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("released after %v", el)
	}
}

// TestGoGuestConfinement checks the same refusals end to end, as the
// errno a wasip1 program sees through the adapter.
func TestGoGuestConfinement(t *testing.T) {
	tmp := t.TempDir()
	in := tmp + "/in"
	os.MkdirAll(tmp+"/out", 0o755)
	os.MkdirAll(in, 0o755)
	os.WriteFile(tmp+"/out/secret", []byte("s"), 0o644)
	os.WriteFile(in+"/file", []byte("f"), 0o644)
	os.Symlink("../out", in+"/esc")
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: in, Guest: "/rw"}, {Host: in, Guest: "/ro", ReadOnly: true}}}
	for _, tc := range []struct{ args, want string }{
		{"try read /rw/esc/secret", "errno=EPERM"},
		{"try write /rw/esc/new", "errno=EPERM"},
		{"try symlink /etc/passwd /rw/mine", "errno=EPERM"},
		{"try write /ro/file", "errno=EROFS"},
		{"try mkdir /ro/d", "errno=EROFS"},
		{"try read /ro/file", "ok"},
		{"try rename /rw/file /rw/esc/moved", "errno=EPERM"},
	} {
		out, _, _, err := runGo(t, g, component.Limits{}, strings.Fields(tc.args)...)
		if err != nil || strings.TrimSpace(out) != tc.want {
			t.Errorf("%s: got %q err %v, want %s", tc.args, out, err, tc.want)
		}
	}
	if _, err := os.Stat(tmp + "/out/new"); err == nil {
		t.Error("file created outside")
	}
}
