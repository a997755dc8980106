package launch_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/testing/a2atask"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/mur-go/mur/internal/agent/trace"
)

// `mur run` serves an agent capsule over A2A: the official Go SDK's
// client, over v1.0 and v0.3 JSON-RPC, sends tasks to a queue+sleep
// capsule; each runs through the real loop and scripted driver and comes
// back completed with the model's answer; the trace records each as an
// A2A task.
func TestAgentCapsuleServedOverA2A(t *testing.T) {
	p := &project{t: t, dir: t.TempDir()}
	yaml := `name: served
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "served answer"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
lifecycle:
  task_acceptance: queue
  after_task: sleep
`
	c := serveCapsule(t, p, yaml, "scripted")
	base, stderr := c.base, c.stderr
	sent := 0
	for _, v := range []a2a.ProtocolVersion{a2a.Version, a2av0.Version} {
		client := sdkClient(t, base, v)
		for i := range 2 {
			res, err := client.SendMessage(t.Context(), &a2a.SendMessageRequest{
				Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(fmt.Sprintf("task %d over %s", i, v)))})
			if err != nil {
				t.Fatalf("%s send: %v\n%s", v, err, stderr.String())
			}
			task, ok := res.(*a2a.Task)
			if !ok {
				t.Fatalf("%s send returned %T", v, res)
			}
			sent++
			if task.Status.State != a2a.TaskStateCompleted || !strings.Contains(a2atask.Text(task), "served answer") {
				t.Errorf("%s task %d: %s %q, want completed with the answer", v, i, task.Status.State, a2atask.Text(task))
			}
		}
	}

	c.stop()
	f, err := os.Open(filepath.Join(p.dir, "workdir", c.sessionID, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := trace.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	received, a2aStarts := 0, 0
	for _, r := range recs {
		switch r.Type {
		case trace.TypeA2ATaskReceived:
			received++
		case trace.TypeTaskStart:
			if r.Fields["source"] == "a2a" {
				a2aStarts++
			}
		}
	}
	if received != sent || a2aStarts != sent {
		t.Errorf("trace has %d a2a_task_received and %d a2a task_start records, want %d each", received, a2aStarts, sent)
	}
}

// served is an agent capsule running under `mur run --json`.
type served struct {
	base, sessionID string
	pid             int
	// stderr is mur's; read it once the process has exited.
	stderr *strings.Builder
	// stop sends SIGTERM and waits for the process; wait only waits.
	// Both return its exit code.
	stop, wait func() int
}

// serveCapsule writes yaml as p's manifest, installs the named test
// packages (see agentPkgs) and starts `mur run --json`, returning once
// the launch line names the URL; the capsule is stopped at cleanup if the
// test has not stopped it.
func serveCapsule(t *testing.T, p *project, yaml string, installs ...string) served {
	t.Helper()
	return serveCapsuleWith(t, p, yaml, nil, nil, installs...)
}

// serveCapsuleWith is serveCapsule with more variables in mur's
// environment and more arguments to mur run.
func serveCapsuleWith(t *testing.T, p *project, yaml string, environ, args []string, installs ...string) served {
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
	return startServing(t, p.dir, environ, args...)
}

// startServing starts `mur run --json` of the capsule already set up in
// dir (its HOME dir/.home, as runMur's) and returns once the launch line
// names the URL.
func startServing(t *testing.T, dir string, environ []string, args ...string) served {
	t.Helper()
	cmd := exec.Command(env.mur, append([]string{"run", "--json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}, environ...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wait := sync.OnceValue(func() int {
		_ = cmd.Wait()
		return cmd.ProcessState.ExitCode()
	})
	stop := func() int {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		return wait()
	}
	t.Cleanup(func() { stop() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stop()
		t.Fatalf("no launch line: %v\n%s", err, stderr.String())
	}
	var launch struct {
		URL       string `json:"url"`
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(line), &launch); err != nil {
		t.Fatalf("launch line %q: %v", line, err)
	}
	if !strings.HasPrefix(launch.URL, "localhost:") {
		t.Fatalf("launch line %q has no URL", line)
	}
	return served{base: "http://" + launch.URL, sessionID: launch.SessionID, pid: cmd.Process.Pid, stderr: stderr, stop: stop, wait: wait}
}

// sdkClient connects the official Go SDK client to the capsule's card
// interface for version v (JSON-RPC).
func sdkClient(t *testing.T, base string, v a2a.ProtocolVersion) *a2aclient.Client {
	t.Helper()
	parser := agentcard.DefaultCardParser
	if v == a2av0.Version {
		parser = a2av0.NewAgentCardParser()
	}
	card, err := (&agentcard.Resolver{Client: http.DefaultClient, CardParser: parser}).Resolve(t.Context(), base)
	if err != nil {
		t.Fatalf("resolving the card: %v", err)
	}
	var iface *a2a.AgentInterface
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == a2a.TransportProtocolJSONRPC && i.ProtocolVersion == v {
			iface = i
		}
	}
	if iface == nil {
		t.Fatalf("the card has no JSON-RPC %s interface", v)
	}
	c, err := a2aclient.NewFromEndpoints(t.Context(), []*a2a.AgentInterface{iface},
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}
