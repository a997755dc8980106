//go:build linux

package launch_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
)

// --no-cgroup (MUR_NO_CGROUP=1) is the operator's way out on a host that
// delegates nothing: without it the capsule is refused with a hint that
// names it; with it the native tool runs without the scope, and W-SEC-010
// says so on stderr, in bootstrap.log and in the trace's session_start.
func TestNoCgroup(t *testing.T) {
	needRoot(t)
	cases := []struct {
		name string
		// env and args are added to mur's.
		env, args []string
		code      int
		// root runs mur as root, who could build a scope here.
		root bool
	}{
		{"refused without", nil, nil, 1, false},
		{"--no-cgroup where a scope could be built", nil, []string{"--no-cgroup"}, 0, true},
		{"--no-cgroup", nil, []string{"--no-cgroup"}, 0, false},
		{"MUR_NO_CGROUP=1", []string{"MUR_NO_CGROUP=1"}, nil, 0, false},
		{"MUR_NO_CGROUP=0", []string{"MUR_NO_CGROUP=0"}, nil, 1, false},
		{"MUR_NO_CGROUP=yes", []string{"MUR_NO_CGROUP=yes"}, nil, 2, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := nobodyWithout(t, c.env)
			if c.root {
				u = asUser{name: "root", mur: env.mur, tree: t.TempDir(), start: func(*exec.Cmd) {}}
			}
			dir := filepath.Join(u.tree, "project")
			nativeProject(t, dir)
			u.own(t)
			r := u.run(t, dir, append([]string{"run", "--task", "record hello"}, c.args...)...)
			if r.code != c.code {
				t.Fatalf("mur run: exit %d, want %d\n%s\n%s", r.code, c.code, r.stdout, r.stderr)
			}
			switch c.code {
			case 1:
				if !strings.Contains(r.stderr, "error[E-RUN-012]") || !strings.Contains(r.stderr, "mur run --no-cgroup (MUR_NO_CGROUP=1)") ||
					!strings.Contains(r.stderr, "no session bus") {
					t.Errorf("the refusal does not say why or name --no-cgroup:\n%s", r.stderr)
				}
				return
			case 2:
				if !strings.Contains(r.stderr, `MUR_NO_CGROUP="yes"`) {
					t.Errorf("the usage error does not name MUR_NO_CGROUP:\n%s", r.stderr)
				}
				return
			}
			assertNoCgroupSaid(t, sessionDir(t, dir), r.stderr)
			if rec, err := os.ReadFile(filepath.Join(sessionDir(t, dir), "record.txt")); err != nil || !strings.Contains(string(rec), "hello") {
				t.Errorf("the native tool did not run: record.txt %q, %v", rec, err)
			}
		})
	}
}

// assertNoCgroupSaid checks that a session run with --no-cgroup says so
// where a W-SEC warning goes, and built no scope.
func assertNoCgroupSaid(t *testing.T, ses, stderr string) {
	t.Helper()
	const said = "the operator turned the session's cgroup scope off (mur run --no-cgroup, MUR_NO_CGROUP=1)"
	if !strings.Contains(stderr, "warning[W-SEC-010]: this capsule can start native subprocesses, but "+said) {
		t.Errorf("stderr has no W-SEC-010 for --no-cgroup:\n%s", stderr)
	}
	boot, _ := os.ReadFile(filepath.Join(ses, "logs", "bootstrap.log"))
	if !strings.Contains(string(boot), "warning[W-SEC-010]") || !strings.Contains(string(boot), "cgroup scope: none: "+said) {
		t.Errorf("bootstrap.log does not say the scope was turned off:\n%s", boot)
	}
	tr, err := os.ReadFile(filepath.Join(ses, trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var start trace.SessionStart
	for _, line := range strings.Split(string(tr), "\n") {
		if strings.Contains(line, `"event_type":"session_start"`) {
			if err := json.Unmarshal([]byte(line), &start); err != nil {
				t.Fatalf("session_start %q: %v", line, err)
			}
		}
	}
	if !slices.ContainsFunc(start.SecurityWarnings, func(w trace.Warning) bool {
		return w.Code == "W-SEC-010" && strings.Contains(w.Message, said)
	}) {
		t.Errorf("session_start's security_warnings %+v have no W-SEC-010 for --no-cgroup", start.SecurityWarnings)
	}
}
