//go:build unix

package launch_test

// Seeing and steering served capsules through the mur binary: every
// command that talks to one (send, watch, ps, cancel, stop) names it by
// URL, session id, id suffix, @N or capsule name; send prints the ids
// cancel takes; ps lists the tasks; a stopped capsule ends cancelled with
// no error, its trace saying so.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mur-go/mur/internal/agent/trace"
)

// steerProject is a queue+sleep capsule named name whose scripted model
// runs one shell command per task, then answers "answered". The command
// blocks on task "nap" (writing to the FIFO ready in the workdir, when
// there is one, then sleeping) and returns at once on any other task.
func steerProject(t *testing.T, name string) *project {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: t.TempDir()}
	look := shellCall("look", `read t < task.md; case "$t" in nap*) echo go > ready; sleep 600;; esac`)
	yaml := fmt.Sprintf(`name: %s
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [%s]}, {"text": "answered"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
capabilities:
  shell:
    allow: [sh, sleep]
lifecycle:
  task_acceptance: queue
  after_task: sleep
`, name, look)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip"))
	return p
}

// serve starts the project's capsule with a workdir of its own (holding
// the FIFO ready) and returns it with that workdir.
func (p *project) serve() (served, string) {
	p.t.Helper()
	work := p.t.TempDir()
	if err := unix.Mkfifo(filepath.Join(work, "ready"), 0o600); err != nil {
		p.t.Fatal(err)
	}
	return startServing(p.t, p.dir, nil, "--workdir", work), work
}

// pending is a `mur send` still running.
type pending struct {
	task, context string
	done          chan struct{}
	code          int
	stdout        strings.Builder
	stderr        strings.Builder
}

var idLine = regexp.MustCompile(`(?m)^(task|context): ((tsk|ctx)_[0-9a-f]{32})$`)

// sendAsync starts `mur send target text` in dir and returns once it has
// printed the task and context ids.
func sendAsync(t *testing.T, dir, target, text string) *pending {
	t.Helper()
	cmd := exec.Command(env.mur, "send", target, text)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	s := &pending{done: make(chan struct{})}
	cmd.Stdout = &s.stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	named := make(chan struct{})
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			s.stderr.WriteString(sc.Text() + "\n")
			if m := idLine.FindStringSubmatch(sc.Text()); m != nil && m[1] == "context" && s.context == "" {
				s.context = m[2]
				close(named)
			}
			if m := idLine.FindStringSubmatch(sc.Text()); m != nil && m[1] == "task" {
				s.task = m[2]
			}
		}
		_ = cmd.Wait()
		s.code = cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-s.done })
	select {
	case <-named:
	case <-s.done:
		t.Fatalf("mur send %s %s ended (exit %d) without naming its task:\n%s", target, text, s.code, s.stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("mur send %s %s named no task in 60 s", target, text)
	}
	return s
}

// wait waits for the send to end and returns its exit code.
func (s *pending) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		t.Fatal("mur send did not end")
	}
	return s.code
}

// watchUntil runs `mur watch target` in dir until a line of its output
// contains want, then stops it.
func watchUntil(t *testing.T, dir, target, want string) {
	t.Helper()
	cmd := exec.Command(env.mur, "watch", target)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), want) {
				found <- true
				io.Copy(io.Discard, out)
				return
			}
		}
		found <- false
	}()
	var ok bool
	select {
	case ok = <-found:
	case <-time.After(60 * time.Second):
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if !ok {
		t.Errorf("mur watch %s never printed %q\nstderr:\n%s", target, want, stderr.String())
	}
}

// wantRun runs mur in dir and checks its exit code and that its output
// holds each of wants.
func wantRun(t *testing.T, dir string, code int, wants []string, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, got := runMur(dir, nil, args...)
	if got != code {
		t.Errorf("mur %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, code, stdout, stderr)
	}
	for _, w := range wants {
		if !strings.Contains(stdout+stderr, w) {
			t.Errorf("mur %s: output lacks %q\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), w, stdout, stderr)
		}
	}
	return stdout, stderr
}

// Every way to name a served capsule works in every command: `mur watch
// @1` used to fail with "lookup 1: no such host".
func TestServedCapsuleNamedEveryWay(t *testing.T) {
	p := steerProject(t, "steer")
	c, _ := p.serve()
	url := strings.TrimPrefix(c.base, "http://")
	for _, f := range []struct{ name, arg string }{
		{"URL", url},
		{"http URL", c.base},
		{"session id", c.sessionID},
		{"id suffix", c.sessionID[len(c.sessionID)-6:]},
		{"@N", "@1"},
		{"name", "steer"},
	} {
		t.Run(f.name, func(t *testing.T) {
			stdout, _ := wantRun(t, p.dir, 0, []string{"task: tsk_", "context: ctx_"}, "send", f.arg, "hello")
			if strings.TrimSpace(stdout) != "answered" {
				t.Errorf("mur send %s: stdout %q, want the answer alone", f.arg, stdout)
			}
			wantRun(t, p.dir, 0, []string{c.sessionID, url}, "ps", f.arg)
			watchUntil(t, p.dir, f.arg, "[completed]")
			nap := sendAsync(t, p.dir, f.arg, "nap")
			wantRun(t, p.dir, 0, []string{nap.task + " canceled"}, "cancel", f.arg, nap.task)
			if code := nap.wait(t); code != 1 || !strings.Contains(nap.stderr.String(), "ended canceled") {
				t.Errorf("the cancelled send: exit %d, stderr:\n%s", code, nap.stderr.String())
			}
		})
	}
}

// send prints the ids; ps lists the task while it runs, cancel takes the
// id alone, ps --all lists it canceled, and --context continues the
// conversation send printed.
func TestSendIdsPsAndCancel(t *testing.T) {
	p := steerProject(t, "steer")
	c, work := p.serve()
	if stdout, _ := wantRun(t, p.dir, 0, []string{c.sessionID}, "ps"); strings.Contains(stdout, "TASK") {
		t.Errorf("mur ps lists tasks of an idle capsule:\n%s", stdout)
	}
	nap := sendAsync(t, p.dir, "@1", "nap")
	if _, err := os.ReadFile(filepath.Join(work, "ready")); err != nil { // the tool call runs
		t.Fatal(err)
	}
	stdout, _ := wantRun(t, p.dir, 0, []string{"TASK", "STATE", nap.task, nap.context}, "ps")
	if !regexp.MustCompile(nap.task + `\s+working\s+` + nap.context).MatchString(stdout) {
		t.Errorf("mur ps does not show %s working:\n%s", nap.task, stdout)
	}
	wantRun(t, p.dir, 0, []string{nap.task + " canceled"}, "cancel", nap.task)
	if code := nap.wait(t); code != 1 {
		t.Errorf("the cancelled send exited %d\n%s", code, nap.stderr.String())
	}
	if stdout, _ := wantRun(t, p.dir, 0, nil, "ps"); strings.Contains(stdout, nap.task) {
		t.Errorf("mur ps lists the cancelled task without --all:\n%s", stdout)
	}
	wantRun(t, p.dir, 0, []string{nap.task, "canceled"}, "ps", "--all")
	_, stderr := wantRun(t, p.dir, 0, []string{"answered", "context: " + nap.context}, "send", "--context", nap.context, "steer", "again")
	again := idLine.FindStringSubmatch(stderr)
	if again == nil {
		t.Fatalf("no task id in:\n%s", stderr)
	}
	stdout, _ = wantRun(t, p.dir, 0, nil, "ps", "-a", c.sessionID)
	if !regexp.MustCompile(again[2] + `\s+completed\s+` + nap.context).MatchString(stdout) {
		t.Errorf("mur ps -a does not show %s completed in %s:\n%s", again[2], nap.context, stdout)
	}
	wantRun(t, p.dir, 1, []string{"no capsule you serve has task tsk_00000000000000000000000000000000"}, "cancel", "tsk_00000000000000000000000000000000")

	// The interrupted call and the cancel are in the trace.
	lines := sessionTraceAt(t, filepath.Join(work, ".murmur", c.sessionID))
	var call, end map[string]any
	for _, l := range lines {
		if l.Type == trace.TypeToolCall && l.Fields["cancelled"] == true {
			call = l.Fields
		}
		if l.Type == trace.TypeTaskEnd && l.Fields["task_id"] == nap.task {
			end = l.Fields
		}
	}
	if call == nil || call["status"] != "error" || end == nil || end["exit_status"] != "cancelled" {
		t.Errorf("trace: interrupted call %v, task_end %v; want a cancelled error call and task_end cancelled", call, end)
	}
}

// A name two capsules answer to, an ordinal past the end or malformed,
// and a name nobody has are refused, the ambiguous and malformed ones as
// command-line mistakes (exit 2) listing the candidates.
func TestServedCapsuleNamesRefused(t *testing.T) {
	p := steerProject(t, "twin")
	a, _ := p.serve()
	b, _ := p.serve()
	for _, cmd := range [][]string{{"send", "twin", "hello"}, {"watch", "twin"}, {"ps", "twin"}, {"cancel", "twin", "tsk_x"}, {"stop", "twin"}} {
		wantRun(t, p.dir, 2, []string{`"twin" names 2 running capsules`, a.sessionID, b.sessionID}, cmd...)
	}
	wantRun(t, p.dir, 2, []string{"want @1 for the most recently started capsule"}, "watch", "@0")
	wantRun(t, p.dir, 1, []string{"only 2 capsule(s) running"}, "send", "@3", "hello")
	wantRun(t, p.dir, 1, []string{"no capsule has that name"}, "stop", "nobody")
	wantRun(t, p.dir, 1, []string{"is not a capsule you serve"}, "stop", "localhost:9")
	// @1 is the newer of the two.
	wantRun(t, p.dir, 0, []string{b.sessionID}, "ps", "@1")
}

// mur stop ends an idle queue capsule, named each way, as a stop and not a
// failure: exit 143, no error line, and a trace ending cancelled (after
// the task it ran, for the one that ran one).
func TestStopNamedEveryWay(t *testing.T) {
	p := steerProject(t, "stopper")
	for _, f := range []struct {
		name string
		arg  func(c served) string
	}{
		{"URL", func(c served) string { return strings.TrimPrefix(c.base, "http://") }},
		{"session id", func(c served) string { return c.sessionID }},
		{"id suffix", func(c served) string { return c.sessionID[len(c.sessionID)-5:] }},
		{"@N", func(served) string { return "@1" }},
		{"name", func(served) string { return "stopper" }},
	} {
		t.Run(f.name, func(t *testing.T) {
			c, work := p.serve()
			ranTask := f.name == "name"
			if ranTask {
				wantRun(t, p.dir, 0, []string{"answered"}, "send", "@1", "hello")
			}
			wantRun(t, p.dir, 0, []string{"stopping " + c.sessionID}, "stop", f.arg(c))
			if code := c.wait(); code != 143 || errorLine(c.stderr.String()) != "" {
				t.Errorf("the stopped capsule exited %d, want 143 and no error line\n%s", code, c.stderr.String())
			}
			got := shape(t, sessionTraceAt(t, filepath.Join(work, ".murmur", c.sessionID)))
			want := []string{"session_end:cancelled"}
			if ranTask {
				want = []string{"a2a_task_received", "task_start", "session_start", "inference:tool_call", "tool_call:sh:ok", "shell",
					"inference:end_turn", "session_end:ok", "task_end:ok", "session_end:cancelled"}
			}
			if !slices.Equal(got, want) {
				t.Errorf("trace\n got  %v\n want %v", got, want)
			}
		})
	}
}

// mur stop while a task's tool call runs: the task and its call end
// cancelled, and so does the run, with no error.
func TestStopDuringToolCall(t *testing.T) {
	p := steerProject(t, "stopper")
	c, work := p.serve()
	nap := sendAsync(t, p.dir, "@1", "nap")
	if _, err := os.ReadFile(filepath.Join(work, "ready")); err != nil {
		t.Fatal(err)
	}
	wantRun(t, p.dir, 0, []string{"stopping " + c.sessionID}, "stop", "stopper")
	if code := c.wait(); code != 143 || errorLine(c.stderr.String()) != "" {
		t.Errorf("the stopped capsule exited %d, want 143 and no error line\n%s", code, c.stderr.String())
	}
	if code := nap.wait(t); code != 1 {
		t.Errorf("the send whose task was stopped exited %d\n%s", code, nap.stderr.String())
	}
	got := shape(t, sessionTraceAt(t, filepath.Join(work, ".murmur", c.sessionID)))
	want := []string{"a2a_task_received", "task_start", "session_start", "inference:tool_call", "tool_call:sh:error",
		"session_end:cancelled", "task_end:cancelled"}
	if !slices.Equal(got, want) {
		t.Errorf("trace\n got  %v\n want %v", got, want)
	}
}

// sessionTraceAt reads the trace in a session directory.
func sessionTraceAt(t *testing.T, dir string) []trace.Line {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.Read(f)
	if err != nil {
		t.Fatalf("trace.jsonl: %v", err)
	}
	return lines
}
