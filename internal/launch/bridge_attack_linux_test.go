//go:build linux

package launch_test

// A hostile local user against transport: process's tool bridge, through
// the mur binary: while the fake agent CLI (internal/agent/process/testdata/
// fakecli, reading its bridge configuration as the real claude does) has
// made its first call and waits, tokenthief (testdata/tokenthief) runs as
// another uid, reads every process's cmdline and environ, every file an
// argv names and every file under /tmp and the capsule's tree, and tries
// every token-shaped string it found, and none, on every new loopback
// listener of mur's uid. It must find no part of the token and call no
// tool, the bridge must refuse it, and the trace must hold only the CLI's
// own call.

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/testing/cgrouptest"
)

// thiefUID is the attacker's uid; victimUID the unprivileged user mur
// runs as in the second case.
const thiefUID, victimUID = 65534, 65533

func TestBridgeTokenHiddenFromOtherUsers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a second uid to attack from needs root to create")
	}
	bin, err := os.MkdirTemp("", "mur-tokenthief-") // t.TempDir's parent is closed to the thief
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bin) })
	if err := os.Chmod(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	thief := filepath.Join(bin, "tokenthief")
	if err := goBuild(thief, "./internal/launch/testdata/tokenthief"); err != nil {
		t.Fatal(err)
	}
	// Shell needs the subprocess tree's own network namespace, which an
	// unprivileged mur cannot make here yet (user namespaces, a later
	// issue): that capsule has its WASM tool only.
	for _, c := range []struct {
		name  string
		uid   int
		shell bool
	}{{"mur as root", 0, true}, {"mur as an unprivileged user", victimUID, false}} {
		t.Run(c.name, func(t *testing.T) { attackBridge(t, thief, c.uid, c.shell) })
	}
}

// attackBridge runs the capsule as uid, with shell allowed if shell, and
// the thief against it.
func attackBridge(t *testing.T, thief string, uid int, shell bool) {
	clis, err := fakeCLIs()
	if err != nil {
		t.Fatal(err)
	}
	// Everything the user has is world-readable, as with umask 022: the
	// thief reads whatever the runtime leaves readable.
	tree, err := os.MkdirTemp("", "mur-bridge-attack-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	mur, cli := filepath.Join(tree, "mur"), filepath.Join(tree, "bin", "claude")
	for from, to := range map[string]string{env.mur: mur, filepath.Join(clis, "claude"): cli} {
		if err := copyFile(from, to); err != nil {
			t.Fatal(err)
		}
	}
	dir, work, cache := filepath.Join(tree, "proj"), filepath.Join(tree, "work"), filepath.Join(tree, "cache")
	for _, d := range []string{dir, work, cache} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	processProjectIn(t, dir, "  command: "+cli+"\n")
	if shell {
		// A shell call through the bridge leaves a shell line in the
		// trace whether the CLI's stream reports it or not: a call of
		// the thief's would be recorded as the capsule's own.
		yaml, err := os.OpenFile(filepath.Join(dir, "murmur.yaml"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = yaml.WriteString("capabilities:\n  shell:\n    allow: [printf]\n")
		if err := errors.Join(err, yaml.Close()); err != nil {
			t.Fatal(err)
		}
	}
	// The CLI writes its pid to fake-ready once its first call is done,
	// then waits until fake-go is opened and closed.
	for _, f := range []string{"fake-ready", "fake-go"} {
		if err := unix.Mkfifo(filepath.Join(work, f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(mur, "run", "--workdir", work, "--task", `block echo {"text":"hello"}`)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	if uid != 0 {
		if err := chownTree(tree, uid, uid); err != nil {
			t.Fatal(err)
		}
		cmd.Env[2] = "MUR_CACHE_DIR=" + cache
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		// The agent CLI runs in the session's cgroup scope, which this
		// user can build only in a cgroup delegated to it.
		cgrouptest.Delegate(t, uid)(cmd)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	bystanders := listening(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	ready := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(filepath.Join(work, "fake-ready"))
		ready <- b
	}()
	var cliPID int
	select {
	case b := <-ready:
		if cliPID, err = strconv.Atoi(string(b)); err != nil {
			t.Fatalf("fake-ready %q: %v", b, err)
		}
	case err := <-exited:
		if f, err := os.OpenFile(filepath.Join(work, "fake-ready"), os.O_WRONLY, 0); err == nil {
			f.Close() // releases the reader
		}
		t.Fatalf("mur ended before the CLI was ready: %v\n%s", err, out.String())
	}
	var auth string
	if b, err := os.ReadFile(filepath.Join(work, "fake-auth.json")); err != nil || json.Unmarshal(b, &auth) != nil {
		t.Fatalf("the CLI recorded no Authorization header: %v", err)
	}
	token, _ := strings.CutPrefix(auth, "Bearer ")
	if len(token) < 32 {
		t.Fatalf("the CLI's Authorization header %q holds no token", auth)
	}

	marker := "thief-" + rand.Text()
	scan := []string{tree, os.TempDir()}
	thiefCmd := exec.Command("setpriv", "--reuid", strconv.Itoa(thiefUID), "--regid", strconv.Itoa(thiefUID), "--clear-groups",
		thief, "-uid", strconv.Itoa(uid), "-skip", strings.Join(bystanders, ","), "-marker", marker, "-scan", strings.Join(scan, ","))
	var stderr bytes.Buffer
	thiefCmd.Stderr = &stderr
	thiefOut, thiefErr := thiefCmd.Output()

	// Release the CLI and let the run end, whatever the thief did.
	if err := os.WriteFile(filepath.Join(work, "fake-go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		t.Fatalf("mur run: %v\n%s", err, out.String())
	}
	if thiefErr != nil {
		t.Fatalf("tokenthief: %v\n%s", thiefErr, stderr.String())
	}
	var r struct {
		Harvest            []byte
		Cmdlines, Environs []int
		Files              int
		Truncated          bool
		Candidates         int
		Listeners          []struct {
			Port      int
			Statuses  map[int]int
			Challenge string
			Accepted  bool
		}
		Called []string
	}
	if err := json.Unmarshal(thiefOut, &r); err != nil {
		t.Fatalf("tokenthief's report: %v\n%s", err, stderr.String())
	}
	t.Logf("tokenthief read %d cmdlines, %d environs, %d files (%d bytes, walk cut short: %v) and tried %d candidates on %d listeners",
		len(r.Cmdlines), len(r.Environs), r.Files, len(r.Harvest), r.Truncated, r.Candidates, len(r.Listeners))

	// It looked where the token was.
	if !slices.Contains(r.Cmdlines, cliPID) {
		t.Errorf("tokenthief did not read the CLI's (pid %d) cmdline", cliPID)
	}
	if slices.Contains(r.Environs, cliPID) {
		t.Errorf("tokenthief read the CLI's (pid %d) environ", cliPID)
	}
	for i := 0; i+16 <= len(token); i++ {
		if bytes.Contains(r.Harvest, []byte(token[i:i+16])) {
			t.Errorf("tokenthief found %q, part of the bridge token, in what it read", token[i:i+16])
			break
		}
	}
	// The bridge refused it, with the token it did not find or without.
	var refused bool
	for _, l := range r.Listeners {
		if l.Accepted {
			t.Errorf("listener %d let tokenthief in", l.Port)
		}
		if !strings.Contains(l.Challenge, `realm="mur-bridge"`) {
			continue
		}
		refused = true
		if n := l.Statuses[401]; n == 0 || len(l.Statuses) != 1 {
			t.Errorf("the bridge answered tokenthief's attempts %v, want 401 to each", l.Statuses)
		}
	}
	if !refused {
		t.Errorf("tokenthief was refused by no tool bridge: it did not find it (%+v)", r.Listeners)
	}
	if len(r.Called) > 0 {
		t.Errorf("tokenthief called tools: %q", r.Called)
	}
	// The trace holds the CLI's one call, none of the thief's.
	traces, _ := filepath.Glob(filepath.Join(work, ".murmur", "ses_*", trace.FileName))
	if len(traces) != 1 {
		t.Fatalf("want one trace, found %v", traces)
	}
	traceText, err := os.ReadFile(traces[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(traceText), marker) {
		t.Errorf("the trace records a call of tokenthief's:\n%s", traceText)
	}
	lines, err := trace.Read(bytes.NewReader(traceText))
	if err != nil {
		t.Fatal(err)
	}
	calls := records(lines, trace.TypeToolCall)
	if len(calls) != 1 || calls[0].Fields["input"].(map[string]any)["text"] != "hello" {
		t.Errorf("tool_call records %v, want the CLI's one call", calls)
	}
}

// listening is the ports something listens on now: the thief leaves them
// alone, as bystanders of this test.
func listening(t *testing.T) []string {
	t.Helper()
	var ports []string
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if fields := strings.Fields(sc.Text()); len(fields) > 3 && fields[3] == "0A" {
				_, port, _ := strings.Cut(fields[1], ":")
				if n, err := strconv.ParseUint(port, 16, 16); err == nil {
					ports = append(ports, strconv.FormatUint(n, 10))
				}
			}
		}
		f.Close()
	}
	return ports
}
