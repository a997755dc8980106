//go:build linux

package launch_test

// A local MCP server lives for the session and no longer, however mur
// ends, and is contained as an unprivileged user's shell command is.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// A local server joins the session's cgroup scope through its
// trampoline: mur SIGKILLed in the middle of a call to a server that
// stays once its client is gone (as a hostile one would), the scope's
// reaper kills the server and removes the scope, for root and for an
// unprivileged uid.
func TestMCPServerDiesWithKilledMur(t *testing.T) {
	bin, err := mcpServerBin()
	if err != nil {
		t.Fatal(err)
	}
	turns := `[{"tool_calls": [` + mcpCall("s", "mcp__t__sleep", map[string]any{}) + `]}, {"text": "never reached"}]`
	for _, u := range users(t) {
		t.Run(u.name, func(t *testing.T) {
			dir := filepath.Join(u.tree, "mcp-kill")
			mcpAgentIn(t, dir, turns, fmt.Sprintf("  shell:\n    allow: [%s]\n", bin),
				fmt.Sprintf("    - {name: t, command: %s, args: [-pidfile, server.pid, -linger]}\n", bin))
			u.own(t)
			m := startMur(t, u.command(dir, "run", "--task", "sleep"))
			pidFile, pidText := m.waitFile(t, filepath.Join(dir, "workdir", "ses_*", "server.pid"))
			server := pin(t, pidText)
			if cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", server.pid)); !strings.Contains(string(cmdline), "-pidfile") {
				t.Fatalf("server.pid names %d, which runs %q", server.pid, cmdline)
			}
			dirs := scopeDirs(t, filepath.Dir(pidFile))
			m.kill(t)
			if !server.goneWithin(orphanBound) {
				t.Errorf("the MCP server %d outlived mur's SIGKILL by %v", server.pid, orphanBound)
			}
			assertRemoved(t, dirs)
		})
	}
}

// server-filesystem told it may read /, run by an unprivileged uid's mur:
// the server cannot read the user's own file outside the workdir (only
// Landlock forbids it), and reads the workdir as usual.
func TestAgentMCPFilesystemContainedAsUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: TestAgentMCPFilesystemContained already runs mur as this unprivileged uid")
	}
	filesystem := testguest.MCPServerDir(t, "server-filesystem")
	u := unprivileged(t)
	if !u.kernelAllowsUserns(t) {
		t.Skipf("the kernel refuses %s user namespaces: shell capsules are refused (TestUnprivilegedDoctorProbesWhatTheKernelAllows checks doctor says so)", u.name)
	}
	// The user's own copy of the modules, as a user who ran npm ci has.
	modules := filepath.Join(u.tree, "node_modules")
	if out, err := exec.Command("cp", "-a", testguest.MCPModules(), modules).CombinedOutput(); err != nil {
		t.Fatalf("copying the modules: %v\n%s", err, out)
	}
	dir, work, outside := t.TempDir(), t.TempDir(), t.TempDir()
	const secretText = "nobody-outside-secret-51b2"
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte(secretText), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "inside.txt"), []byte("inside content"), 0o644); err != nil {
		t.Fatal(err)
	}
	turns := `[{"tool_calls": [` + mcpCall("out", "mcp__fs__read_text_file", map[string]string{"path": secret}) + `, ` +
		mcpCall("in", "mcp__fs__read_text_file", map[string]string{"path": filepath.Join(work, "inside.txt")}) + `]}, {"text": "read"}]`
	server := strings.Replace(filesystem, testguest.MCPModules(), modules, 1)
	p := mcpAgentIn(t, dir, turns, "  containment: scoped\n"+nodeGrant(modules), fmt.Sprintf("    - {name: fs, command: node, args: [%s/dist/index.js, /]}\n", server))
	u.own(t)
	u.give(t, p.dir, work, outside)
	out, err := u.command(p.dir, "run", "--workdir", work, "--task", "read").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nstatus:  ok\n") {
		t.Fatalf("mur run as %s: %v\n%s", u.name, err, out)
	}
	sess, _ := filepath.Glob(filepath.Join(work, ".murmur", "ses_*"))
	if len(sess) != 1 {
		t.Fatalf("sessions: %v", sess)
	}
	calls := toolCalls(t, sess[0])
	if len(calls) != 2 || calls[0]["status"] != "error" || !strings.Contains(fmt.Sprint(calls[0]["output"]), "EACCES") ||
		calls[1]["status"] != "ok" || calls[1]["output"] != "inside content" {
		t.Errorf("tool_call records: %v", calls)
	}
	nowhereUnder(t, work, secretText)
	if strings.Contains(string(out), secretText) {
		t.Errorf("mur's output holds the secret")
	}
}
