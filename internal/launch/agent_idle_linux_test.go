//go:build linux

package launch_test

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/testing/a2atask"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// An idle served capsule does not hold the pages of the mur binary that
// starting it (and its tasks) mapped: at the URL announcement and once the
// loop has waited for its next task long enough to release its memory,
// the binary's resident file pages are a fraction of its read-only
// segments (before the release, start-up alone left most of them mapped).
// A task after the release still runs: the pages come back from the page
// cache.
func TestIdleServedCapsuleReleasesTheBinarysPages(t *testing.T) {
	p := &project{t: t, dir: t.TempDir()}
	yaml := `name: idle
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "idle answer"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
lifecycle:
  task_acceptance: queue
  after_task: sleep
`
	c := serveLogged(t, p, yaml, "scripted")
	readOnly := readOnlySegments(t, env.mur)
	check := func(when string) {
		t.Helper()
		if got := rssOf(t, c.pid, env.mur); got > readOnly*2/5 {
			t.Errorf("%s: %d KiB of the binary resident, want at most 40%% of its %d KiB of read-only segments\n%s",
				when, got>>10, readOnly>>10, c.stderr())
		}
	}
	check("at the URL announcement")

	client := sdkClient(t, c.base, a2a.Version)
	send := func(text string) {
		t.Helper()
		res, err := client.SendMessage(t.Context(), &a2a.SendMessageRequest{
			Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
		if err != nil {
			t.Fatalf("send: %v\n%s", err, c.stderr())
		}
		task, ok := res.(*a2a.Task)
		if !ok || task.Status.State != a2a.TaskStateCompleted || !strings.Contains(a2atask.Text(task), "idle answer") {
			t.Fatalf("send returned %+v, want a completed task with the answer\n%s", res, c.stderr())
		}
	}
	send("first task")
	c.waitRelease(t, c.releases())
	check("idle after a task")
	send("a task after the release")
}

// loggedCapsule is an agent capsule under `mur --log-level debug run
// --json` whose memory releases are counted as they are logged.
type loggedCapsule struct {
	base string
	pid  int

	mu       *sync.Mutex
	log      *strings.Builder
	released int
	// logged is signalled (without blocking) after each release is counted.
	logged chan struct{}
}

func (c *loggedCapsule) stderr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.log.String()
}

func (c *loggedCapsule) releases() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.released
}

// waitRelease waits for a release after the first n.
func (c *loggedCapsule) waitRelease(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(time.Minute)
	for c.releases() <= n {
		select {
		case <-c.logged:
		case <-timeout:
			t.Fatalf("no memory release logged within a minute\n%s", c.stderr())
		}
	}
}

func serveLogged(t *testing.T, p *project, yaml string, installs ...string) *loggedCapsule {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range installs {
		p.mur(0, "install", filepath.Join(pkgs, name+"-0.1.0.mur.zip"))
	}
	cmd := exec.Command(env.mur, "--log-level", "debug", "run", "--json")
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &loggedCapsule{pid: cmd.Process.Pid, mu: &sync.Mutex{}, log: &strings.Builder{}, logged: make(chan struct{}, 1)}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			c.mu.Lock()
			c.log.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), `msg="released idle memory"`) {
				c.released++
			}
			c.mu.Unlock()
			select {
			case c.logged <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-drained
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no launch line: %v\n%s", err, c.stderr())
	}
	var launch struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal([]byte(line), &launch); err != nil || !strings.HasPrefix(launch.URL, "localhost:") {
		t.Fatalf("launch line %q has no URL (%v)", line, err)
	}
	c.base = "http://" + launch.URL
	return c
}

// readOnlySegments is the size of an executable's loaded segments that
// are not writable: its code, read-only data and pclntab.
func readOnlySegments(t *testing.T, path string) uint64 {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n uint64
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_W == 0 {
			n += p.Memsz
		}
	}
	return n
}

// rssOf is the resident memory of a process's mappings of the file at
// path (for mur, its own binary). Not RssFile: the compiled code of the
// capsule's guests is file-backed too, mapped from the compile cache.
// mur makes itself non-dumpable, so only root reads its smaps.
func rssOf(t *testing.T, pid int, path string) uint64 {
	t.Helper()
	want, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if errors.Is(err, fs.ErrPermission) && os.Geteuid() != 0 {
		t.Skip("not root: only root reads the smaps of mur (non-dumpable), where its binary's pages are told from the code it maps from the compile cache; the root run checks this")
	}
	if err != nil {
		t.Fatal(err)
	}
	var total uint64
	mine := false
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			// A mapping's header: address range, perms, offset, dev, inode, path.
			mine = false
			if len(f) >= 6 {
				if fi, err := os.Stat(f[5]); err == nil && os.SameFile(fi, want) {
					mine = true
				}
			}
		case mine && len(f) >= 2 && f[0] == "Rss:":
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				t.Fatalf("smaps Rss %q: %v", line, err)
			}
			total += kb << 10
		}
	}
	return total
}
