package agentexample

// The harness of the cluster tests (issue 28): an embedded JetStream
// cluster of three servers on loopback in the test process (nats-server
// as a library), and mur gateway and mur worker as real processes of the
// example's mur binary, each followed through the lines it prints.

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/testing/natstest"
)

// natsCluster is the embedded JetStream cluster a test runs on.
type natsCluster struct {
	*natstest.Cluster
	urls string
}

func startNATS(t *testing.T, n int) *natsCluster {
	t.Helper()
	c := natstest.Start(t, n)
	return &natsCluster{Cluster: c, urls: c.URLs}
}

// ensure sets the cluster's streams and buckets up, as a gateway does.
func (c *natsCluster) ensure(t *testing.T) *queue.Stores {
	t.Helper()
	return c.Ensure(t)
}

// proc is a mur process whose stdout lines the test reads as they come.
type proc struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *lockedBuffer
	done   chan struct{}
}

// start starts mur with args in the project, as the example's user.
func (e *example) start(t *testing.T, prep func(*exec.Cmd), args ...string) *proc {
	t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = e.project
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "MUR_CACHE_DIR=" + e.cache, "MUR_NO_CGROUP=1"}
	if prep != nil {
		prep(cmd)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, lines: make(chan string, 4096), stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		_ = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	return p
}

// await reads lines until one starts with prefix and returns the rest.
func (p *proc) await(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				<-p.done
				t.Fatalf("%s ended (%v) before printing %q\nstderr:\n%s", p.cmd.Args[1], p.cmd.ProcessState, prefix, p.stderr.String())
			}
			if v, ok := strings.CutPrefix(l, prefix); ok {
				return v
			}
		case <-timeout:
			t.Fatalf("%s printed no %q in 60 s\nstderr:\n%s", p.cmd.Args[1], prefix, p.stderr.String())
		}
	}
}

// exit waits for the process to end and returns its exit code.
func (p *proc) exit(t *testing.T) int {
	t.Helper()
	go func() {
		for range p.lines {
		}
	}()
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not exit in 60 s\nstderr:\n%s", p.cmd.Args[1], p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

func (p *proc) signal(t *testing.T, s syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(s); err != nil {
		t.Fatal(err)
	}
}

// gateway starts mur gateway on the cluster and returns the capsule's
// base URL.
func (e *example) gateway(t *testing.T, urls string) (*proc, string) {
	g := e.start(t, nil, "gateway", "--nats", urls, "--bind", "127.0.0.1:0")
	return g, g.await(t, "a2a: url ") + "/agent"
}

// worker starts mur worker on the cluster and returns it with its id.
func (e *example) worker(t *testing.T, urls string, prep func(*exec.Cmd), extra ...string) (*proc, string) {
	w := e.start(t, prep, append([]string{"worker", "--nats", urls, "--manifest", "murmur.yaml", "--ack-wait", "6s"}, extra...)...)
	id, _, _ := strings.Cut(w.await(t, "worker: "), " ")
	return w, id
}

// client is an A2A v1.0 JSON-RPC client of base, from its card.
func client(t *testing.T, base string) *a2aclient.Client {
	t.Helper()
	card, err := (&agentcard.Resolver{Client: http.DefaultClient}).Resolve(t.Context(), base)
	if err != nil {
		t.Fatalf("resolving the card at %s: %v", base, err)
	}
	var iface *a2a.AgentInterface
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == a2a.TransportProtocolJSONRPC && i.ProtocolVersion == a2a.Version {
			iface = i
		}
	}
	if iface == nil || iface.URL != base {
		t.Fatalf("the card names no JSON-RPC interface at %s: %+v", base, card.SupportedInterfaces)
	}
	// No timeout but the test's: a task waits its turn in the queue.
	c, err := a2aclient.NewFromEndpoints(t.Context(), []*a2a.AgentInterface{iface}, a2aclient.WithJSONRPCTransport(&http.Client{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}

// taskText is the example's task.md: the text the script's answer is for.
func taskText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("task.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// answerOf is the text of a task's response artifact.
func answerOf(task *a2a.Task) string {
	for _, a := range task.Artifacts {
		if a.ID == "response" {
			var b strings.Builder
			for _, p := range a.Parts {
				b.WriteString(p.Text())
			}
			return b.String()
		}
	}
	return ""
}

// watchRecords follows every task record of the cluster: the test waits
// on them instead of sleeping.
func watchRecords(t *testing.T, st *queue.Stores) <-chan jetstream.KeyValueEntry {
	t.Helper()
	w, err := st.Tasks.Watch(t.Context(), queue.TaskKeys("agent"), jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
	return w.Updates()
}
