package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdka2a "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/mur-go/mur/internal/base/running"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/stage"
)

// buildEchoCapsule builds bench/a2a/echocapsule.
func buildEchoCapsule(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "echocapsule")
	build := exec.Command("go", "build", "-o", bin, "../../bench/a2a/echocapsule")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building echocapsule: %v\n%s", err, out)
	}
	return bin
}

// echoCapsule starts bin listed in home's registry; it serves until the
// test ends or it is stopped.
func echoCapsule(t *testing.T, bin, home string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, "-running-dir", running.Dir(home))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("echocapsule did not start: %v", err)
	}
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "url "))
}

func TestPsStopCancel(t *testing.T) {
	bin := buildEchoCapsule(t) // before HOME moves: go build caches under it
	home := t.TempDir()
	t.Setenv("HOME", home)
	mur(t, "ps").want(t, 0, "no running sessions", "")

	cmd, url := echoCapsule(t, bin, home)
	o := mur(t, "ps")
	o.want(t, 0, url, "")
	if !strings.Contains(o.stdout, "echocapsule v0.1.0") || !strings.Contains(o.stdout, fmt.Sprint(cmd.Process.Pid)) {
		t.Fatalf("mur ps:\n%s", o.stdout)
	}

	// cancel: a task that runs until cancelled, streamed by an SDK client.
	entries, _ := running.List(running.Dir(home), alive)
	if len(entries) != 1 {
		t.Fatalf("registry: %+v", entries)
	}
	c, err := a2aclient.NewFromEndpoints(t.Context(), []*sdka2a.AgentInterface{{URL: "http://" + url, ProtocolBinding: sdka2a.TransportProtocolJSONRPC, ProtocolVersion: sdka2a.Version}})
	if err != nil {
		t.Fatal(err)
	}
	var last sdka2a.TaskState
	for ev, err := range c.SendStreamingMessage(t.Context(), &sdka2a.SendMessageRequest{Message: sdka2a.NewMessage(sdka2a.MessageRoleUser, sdka2a.NewTextPart("block"))}) {
		if err != nil {
			t.Fatal(err)
		}
		if st, ok := ev.(*sdka2a.TaskStatusUpdateEvent); ok {
			if last == "" && st.Status.State == sdka2a.TaskStateWorking {
				mur(t, "cancel", "@1", string(st.TaskID)).want(t, 0, string(st.TaskID)+" canceled", "")
			}
			last = st.Status.State
		}
	}
	if last != sdka2a.TaskStateCanceled {
		t.Fatalf("the cancelled task's stream ended %s", last)
	}

	// stop: the process ends as after SIGTERM and leaves the registry.
	suffix := entries[0].SessionID[len(entries[0].SessionID)-6:]
	mur(t, "stop", suffix).want(t, 0, "stopping "+entries[0].SessionID, "")
	waited := make(chan error, 1)
	go func() { _, err := cmd.Process.Wait(); waited <- err }()
	select {
	case <-waited:
	case <-time.After(30 * time.Second):
		t.Fatal("the capsule did not stop")
	}
	mur(t, "ps").want(t, 0, "no running sessions", "")
}

// A registry entry whose pid is not the process serving its URL (a stale
// file and a recycled pid, or a planted file) must not get that process
// signalled.
func TestStopRefusesAPidThatDoesNotServeTheSession(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	u := serveA2AIn(t, running.Dir(home))
	victim := exec.Command("sleep", "300")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer victim.Process.Kill()
	planted := running.Entry{SessionID: "ses_0000000000000000000000000000dead", PID: victim.Process.Pid, URL: u, Started: time.Now()}
	if _, err := running.Register(running.Dir(home), planted); err != nil {
		t.Fatal(err)
	}
	mur(t, "stop", "dead").wantOutput(t, 1, "not stopping ses_0000000000000000000000000000dead")
	if !alive(victim.Process.Pid) {
		t.Fatal("mur stop signalled a process that does not serve the session")
	}
}

// serveA2AIn serves chunkLoop in-process, listed in dir.
func serveA2AIn(t *testing.T, dir string) string {
	t.Helper()
	sdir := t.TempDir()
	id, _ := stage.NewSessionID(time.Now(), nil)
	ctx, stop := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- a2a.Serve(ctx, a2a.ServerOptions{SessionID: id, Workdir: sdir, RunningDir: dir,
			Lifecycle: manifest.Lifecycle{TaskAcceptance: "queue", AfterTask: "sleep", QueueDepth: 4},
			Card:      a2a.CardInfo{Name: "cli-test", Version: "0.1.0"},
			OnListen:  func(u string) { urls <- u }, Run: chunkLoop(sdir)})
		close(urls)
	}()
	u, ok := <-urls
	if !ok {
		t.Fatalf("the server did not start: %v", <-done)
	}
	t.Cleanup(func() { stop(); <-done })
	return u
}
