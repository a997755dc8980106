package launch_test

// Lifecycle hooks through `mur run`: the WAT hook doubles of guests/
// staged from packages (reopen-task, error isolation, a missing export,
// async queue overflow, on-stage in a script capsule), in capsules driven
// by the scripted driver. hooks_firstparty_test.go has compact and guard.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// hookPkgs packs the WAT hook doubles as hook artifacts:
// <name>-0.1.0.mur.zip for each name below, with its guest and contract.
var hookPkgs = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-hook-pkgs-")
	if err != nil {
		return "", err
	}
	for name, h := range map[string]struct{ guest, contract string }{
		"hook-reopen-once": {"hook-reopen-once", "execution_mode: blocking\ncommit_policy: reopen-task\n"},
		"hook-answer-050":  {"hook-answer-050", "execution_mode: blocking\ncommit_policy: reopen-task\n"},
		"stager":           {"hook-answer-050", "binding: on-stage\nexecution_mode: blocking\ncommit_policy: write-manifests\n"},
		"hook-errs":        {"hook-errs", "execution_mode: blocking\ncommit_policy: none\n"},
		"hook-missing":     {"hook-missing", "execution_mode: blocking\ncommit_policy: none\n"},
		"hook-slow-start":  {"hook-slow-start", "execution_mode: async\ncommit_policy: none\n"},
	} {
		dir := filepath.Join(src, name)
		if err := copyFile(testguest.Path(h.guest), filepath.Join(dir, name+".wasm")); err != nil {
			return "", err
		}
		yaml := fmt.Sprintf("name: %s\nversion: \"0.1.0\"\nruntime: hook\ndescription: test hook %s\nrequires_files: [%s.wasm]\n%s",
			name, name, name, h.contract)
		if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
			return "", err
		}
		if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
			return "", fmt.Errorf("mur build %s: exit %d\n%s", name, code, stderr)
		}
	}
	return src, nil
})

// hookProject writes an agent capsule whose scripted driver replays
// script (the driver config), with extra lines under inference: and the
// rest of the manifest, declaring the hooks named (entries of their own,
// indented as artifact entries) after scripted and echo. The packages
// of local hooks and echo go to the global store; `mur install` then
// pins everything, the built-ins from the binary.
func hookProject(t *testing.T, inference, script, hooks, rest string, local ...string) *project {
	t.Helper()
	agent, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	hp, err := hookPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
%s  driver:
    artifact: scripted
    config: %s
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - name: echo
    version: "0.1.0"
    runtime: tool
%s%s`, inference, script, hooks, rest)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "publish", filepath.Join(agent, "echo-0.1.0.mur.zip"), "--registry", "local")
	for _, name := range local {
		p.mur(0, "publish", filepath.Join(hp, name+"-0.1.0.mur.zip"), "--registry", "local")
	}
	p.mur(0, "install")
	return p
}

// hookEntry is a capsule artifact entry for hook name.
func hookEntry(name, extra string) string {
	return fmt.Sprintf("  - name: %s\n    version: \"0.1.0\"\n    runtime: hook\n%s", name, extra)
}

// sessionFile reads a file of the one session dir.
func (p *project) sessionFile(rel string) string {
	p.t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(p.dir, "workdir", "ses_*"))
	if len(dirs) != 1 {
		p.t.Fatalf("want one session dir, found %v", dirs)
	}
	b, err := os.ReadFile(filepath.Join(dirs[0], rel))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b)
}

// records are the trace lines of type typ.
func records(lines []trace.Line, typ string) []trace.Line {
	return slices.DeleteFunc(slices.Clone(lines), func(l trace.Line) bool { return l.Type != typ })
}

// reopen-task at on-task-end: granted while inference.max_task_reopens
// lasts (task.md rewritten with the feedback, task_reopened), then
// refused: the task ends reopen_budget_exhausted and mur run fails with
// E-RUN-007.
func TestHookReopenTask(t *testing.T) {
	cases := []struct {
		name, hook string
		code       int
		reopens    int
		taskEnd    string
	}{
		{"granted", "hook-reopen-once", 0, 1, "ok"},
		{"exhausted", "hook-answer-050", 1, 1, "reopen_budget_exhausted"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := hookProject(t, "  max_task_reopens: 1\n", `{"turns": [{"text": "done"}]}`, hookEntry(tc.hook, ""), "", tc.hook)
			stdout, stderr, code := runMur(p.dir, nil, "run", "--task", "say done")
			if code != tc.code {
				t.Fatalf("mur run: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if tc.code != 0 && !strings.Contains(stderr, "E-RUN-007") {
				t.Errorf("stderr does not name E-RUN-007:\n%s", stderr)
			}
			lines := p.sessionTrace()
			reopened := records(lines, trace.TypeTaskReopened)
			if len(reopened) != tc.reopens {
				t.Fatalf("%d task_reopened records, want %d: %v", len(reopened), tc.reopens, shape(t, lines))
			}
			if f := reopened[0].Fields; f["hook_name"] != tc.hook || f["reason"] != "try again" || f["reopen_number"] != 1.0 {
				t.Errorf("task_reopened = %v", f)
			}
			ends := records(lines, trace.TypeTaskEnd)
			if len(ends) != 1 || ends[0].Fields["exit_status"] != tc.taskEnd || ends[0].Fields["reopen_count"] != float64(tc.reopens) {
				t.Errorf("task_end records %v, want one %s with reopen_count %d", ends, tc.taskEnd, tc.reopens)
			}
			if n := len(records(lines, trace.TypeInference)); n != 2 {
				t.Errorf("%d inference records, want one per attempt (2)", n)
			}
			// Without --workdir the session dir is the accessible one.
			if task := p.sessionFile("task.md"); !strings.HasPrefix(task, "say done") || !strings.Contains(task, tc.hook) ||
				!strings.Contains(task, "try again") {
				t.Errorf("task.md after the run = %q; want the task, then the hook's feedback", task)
			}
		})
	}
}

// A hook's errors go to logs/hook-<name>.log, one line per failed call,
// and the run goes on to succeed.
func TestHookErrorsIsolated(t *testing.T) {
	p := hookProject(t, "", `{"turns": [`+echoHello+`, {"text": "done"}]}`, hookEntry("hook-errs", ""), "", "hook-errs")
	stdout, stderr, code := runMur(p.dir, nil, "run", "--task", "echo hello")
	if code != 0 {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if got := strings.TrimSpace(p.sessionFile("out/result.txt")); got != "done" {
		t.Errorf("result.txt = %q", got)
	}
	log := p.sessionFile("logs/hook-hook-errs.log")
	for _, fn := range []string{"on-session-start", "on-task-start", "on-inference", "on-tool-call", "on-task-end", "on-session-end"} {
		if !strings.Contains(log, fn) {
			t.Errorf("logs/hook-hook-errs.log has no line for %s:\n%s", fn, log)
		}
	}
}

// A hook missing a required lifecycle function fails the session before
// any turn, naming the function.
func TestHookMissingExport(t *testing.T) {
	p := hookProject(t, "", `{"turns": [{"text": "done"}]}`, hookEntry("hook-missing", ""), "", "hook-missing")
	stdout, stderr, code := runMur(p.dir, nil, "run", "--task", "say done")
	if code == 0 {
		t.Fatalf("mur run exited 0 with a hook missing on-session-start\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if !strings.Contains(stderr, "hook-missing") || !strings.Contains(stderr, "on-session-start") {
		t.Errorf("stderr does not name the hook and its missing function:\n%s", stderr)
	}
}

// An async hook whose first call (on-session-start) spins until its 10 s
// deadline, behind which one turn of 1100 tool calls fills its 1024-deep
// queue: under on_overflow: drop the excess events are discarded, each a
// queue-overflow hook_dispatch_error and all of them counted in its log,
// and the loop never waits; under block the loop waits for room (so the
// task lasts until the spin is interrupted) and nothing is dropped.
func TestAsyncHookQueueOverflow(t *testing.T) {
	calls := make([]string, 1100)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"id": "c%d", "name": "nope"}`, i)
	}
	script := `{"turns": [{"tool_calls": [` + strings.Join(calls, ", ") + `]}, {"text": "done"}]}`
	for _, overflow := range []string{"drop", "block"} {
		t.Run(overflow, func(t *testing.T) {
			// The capsule's deadline applies to every hook call too
			// (security.md §8): the spin is interrupted after 10 s.
			p := hookProject(t, "", script, hookEntry("hook-slow-start", "    on_overflow: "+overflow+"\n"),
				"capabilities:\n  limits:\n    deadline_seconds: 10\n", "hook-slow-start")
			stdout, stderr, code := runMur(p.dir, nil, "run", "--task", "call nope")
			if code != 0 {
				t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%.3000s", code, stdout, stderr)
			}
			lines := p.sessionTrace()
			var dropped int
			for _, l := range records(lines, trace.TypeHookDispatchError) {
				if l.Fields["hook_name"] != "hook-slow-start" {
					t.Errorf("hook_dispatch_error %v", l.Fields)
				}
				if l.Fields["arm"] == "queue-overflow" {
					dropped++
				}
			}
			log := p.sessionFile("logs/hook-hook-slow-start.log")
			if !strings.Contains(log, "on-session-start") {
				t.Errorf("the hook log does not record the interrupted on-session-start:\n%s", log)
			}
			summary := fmt.Sprintf("hook 'hook-slow-start' discarded %d lifecycle event(s): its queue (1024 deep) was full and the capsule manifest declares 'on_overflow: drop' for this hook", dropped)
			ends := records(lines, trace.TypeTaskEnd)
			if len(ends) != 1 {
				t.Fatalf("task_end records %v", ends)
			}
			switch overflow {
			case "drop":
				if dropped == 0 || !strings.Contains(log, summary) {
					t.Errorf("%d queue-overflow records; log:\n%.2000s", dropped, log)
				}
			case "block":
				if dropped != 0 || strings.Contains(log, "discarded") {
					t.Errorf("under block %d events were dropped; log:\n%.2000s", dropped, log)
				}
				// The 1025th queued event could only go in once the spin ended.
				if d := ends[0].Fields["duration_ms"].(float64); d < 5000 {
					t.Errorf("the task took %v ms: the loop did not wait for room in the queue", d)
				}
			}
		})
	}
}

// on-stage's write-manifests in a script capsule: the hook's manifest
// replaces the one generated for the shell tool git in the session's
// internal/tools/.
func TestOnStageWriteManifestsScriptCapsule(t *testing.T) {
	hp, err := hookPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := newProject(t, "  shell:\n    allow: [git]\n", []string{"record"})
	path := filepath.Join(p.dir, "murmur.yaml")
	yaml, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	withHook := strings.Replace(string(yaml), "artifacts:\n", "artifacts:\n"+hookEntry("stager", ""), 1)
	if err := os.WriteFile(path, []byte(withHook), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", filepath.Join(hp, "stager-0.1.0.mur.zip"))
	s := p.run(0, "http://127.0.0.1:9/")
	b, err := os.ReadFile(filepath.Join(s.sessionDir, "tools", "git", "murmur.yaml"))
	if err != nil || string(b) != "description: from on-stage\n" {
		t.Errorf("tools/git/murmur.yaml = %q, %v; want the hook's manifest", b, err)
	}
}
