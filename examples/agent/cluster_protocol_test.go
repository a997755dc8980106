package agentexample

// The gateway's protocols through the official a2a-go v2 client (issue
// 28): every binding the card names, against real gateways and workers,
// and every read answered by a gateway other than the one that took the
// task.

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// bindings are the interfaces a gateway's card names for a capsule.
var bindings = []struct {
	name    string
	binding a2a.TransportProtocol
	version a2a.ProtocolVersion
}{
	{"v1.0 JSON-RPC", a2a.TransportProtocolJSONRPC, a2a.Version},
	{"v1.0 HTTP+JSON", a2a.TransportProtocolHTTPJSON, a2a.Version},
	{"v0.3 JSON-RPC", a2a.TransportProtocolJSONRPC, a2av0.Version},
}

// bindingClient is a client of base on exactly one interface of its
// card, read with the parser of the interface's version.
func bindingClient(t *testing.T, base string, binding a2a.TransportProtocol, version a2a.ProtocolVersion) *a2aclient.Client {
	t.Helper()
	parser := agentcard.DefaultCardParser
	if version == a2av0.Version {
		parser = a2av0.NewAgentCardParser()
	}
	card, err := (&agentcard.Resolver{Client: http.DefaultClient, CardParser: parser}).Resolve(t.Context(), base)
	if err != nil {
		t.Fatalf("resolving the card at %s: %v", base, err)
	}
	var iface *a2a.AgentInterface
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == binding && i.ProtocolVersion == version {
			iface = i
		}
	}
	if iface == nil || iface.URL != base {
		t.Fatalf("the card names no %s %s interface at %s: %+v", binding, version, base, card.SupportedInterfaces)
	}
	c, err := a2aclient.NewFromEndpoints(t.Context(), []*a2a.AgentInterface{iface},
		a2aclient.WithJSONRPCTransport(&http.Client{}), a2aclient.WithRESTTransport(&http.Client{}),
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: &http.Client{}}))
	if err != nil {
		t.Fatalf("client of %s %s: %v", binding, version, err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}

// napperYAML is sleeperYAML as a capsule of its own name, so that it is
// served beside the example on one cluster.
var napperYAML = strings.Replace(sleeperYAML, "name: agent", "name: napper", 1)

func TestClusterGatewayProtocols(t *testing.T) {
	e := setUp(t)
	nc := startNATS(t, 3)
	nc.ensure(t)
	g1, base1 := e.gateway(t, nc.urls)
	_, base2 := e.gateway(t, nc.urls)
	e.worker(t, nc.urls, nil, "--concurrency", "4")
	napper := e.capsuleDir(t, napperYAML)
	nw, _ := e.worker(t, nc.urls, nil, "--manifest", filepath.Join(napper, "murmur.yaml"))
	text, answer := taskText(t), finalAnswer(t)
	root := strings.TrimSuffix(base1, "/agent")

	t.Run("the card names the capsule's URL for every binding", func(t *testing.T) {
		for _, base := range []string{base1, base2} {
			res, err := http.Get(base + "/.well-known/agent-card.json")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("the card at %s: status %d\n%s", base, res.StatusCode, body)
			}
			var card struct {
				Name       string `json:"name"`
				URL        string `json:"url"`
				Preferred  string `json:"preferredTransport"`
				Interfaces []struct {
					URL     string `json:"url"`
					Binding string `json:"protocolBinding"`
					Version string `json:"protocolVersion"`
				} `json:"supportedInterfaces"`
			}
			if err := json.Unmarshal(body, &card); err != nil {
				t.Fatalf("the card is not JSON: %v\n%s", err, body)
			}
			// v0.3 clients read url and preferredTransport.
			if card.Name != "agent" || card.URL != base || card.Preferred != "JSONRPC" {
				t.Errorf("the card says name %q url %q preferredTransport %q, want agent at %s over JSONRPC", card.Name, card.URL, card.Preferred, base)
			}
			var got []string
			for _, i := range card.Interfaces {
				if i.URL != base {
					t.Errorf("the card's %s %s interface is at %s, want %s", i.Binding, i.Version, i.URL, base)
				}
				got = append(got, i.Binding+" "+i.Version)
			}
			for _, b := range bindings {
				if !slices.Contains(got, string(b.binding)+" "+string(b.version)) {
					t.Errorf("the card names no %s interface: %v", b.name, got)
				}
			}
		}
	})

	t.Run("send on one gateway, get and list on the other", func(t *testing.T) {
		for _, b := range bindings {
			t.Run(b.name, func(t *testing.T) {
				c1 := bindingClient(t, base1, b.binding, b.version)
				c2 := bindingClient(t, base2, b.binding, b.version)
				res, err := c1.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
				task, ok := res.(*a2a.Task)
				if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), answer) {
					t.Fatalf("send: %v %s", err, describe(res))
				}
				got, err := c2.GetTask(t.Context(), &a2a.GetTaskRequest{ID: task.ID})
				if err != nil || got.ID != task.ID || got.Status.State != a2a.TaskStateCompleted || answerOf(got) != answerOf(task) {
					t.Fatalf("get on the other gateway: %v %s", err, describe(got))
				}
				if _, err := c2.GetTask(t.Context(), &a2a.GetTaskRequest{ID: "tsk_00000000000000000000000000000000"}); err == nil {
					t.Error("get of an unknown task succeeded")
				}
				if b.version == a2av0.Version {
					return // v0.3 has no tasks/list
				}
				list, err := c2.ListTasks(t.Context(), &a2a.ListTasksRequest{ContextID: task.ContextID, IncludeArtifacts: true})
				if err != nil {
					t.Fatal(err)
				}
				if len(list.Tasks) != 1 || list.Tasks[0].ID != task.ID || answerOf(list.Tasks[0]) != answerOf(task) {
					t.Errorf("list by context on the other gateway: %s", describe(list))
				}
			})
		}
	})

	t.Run("a streamed send yields the task's events to its end", func(t *testing.T) {
		for _, b := range bindings {
			t.Run(b.name, func(t *testing.T) {
				c := bindingClient(t, base1, b.binding, b.version)
				var states []a2a.TaskState
				var last string
				var id a2a.TaskID
				for ev, err := range c.SendStreamingMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))}) {
					if err != nil {
						t.Fatal(err)
					}
					switch ev := ev.(type) {
					case *a2a.Task:
						id = ev.ID
						states = append(states, ev.Status.State)
					case *a2a.TaskStatusUpdateEvent:
						states = append(states, ev.Status.State)
					case *a2a.TaskArtifactUpdateEvent:
						if ev.LastChunk && ev.Artifact.ID == "response" {
							last = ev.Artifact.Parts[0].Text()
						}
					}
					if ev.TaskInfo().TaskID != id {
						t.Fatalf("an event of task %s in the stream of %s", ev.TaskInfo().TaskID, id)
					}
				}
				// The first is the task as queued: submitted, or working
				// already if a worker was quick to claim it.
				if len(states) < 3 || !slices.Contains(states, a2a.TaskStateWorking) || states[len(states)-1] != a2a.TaskStateCompleted {
					t.Errorf("the stream's states %v, want the task … working … completed", states)
				}
				if !strings.HasPrefix(last, answer) {
					t.Errorf("the stream's last chunk of the answer is %q, want %q", last, answer)
				}
			})
		}
	})

	t.Run("a resubscribe on the other gateway follows the task to its end", func(t *testing.T) {
		for _, b := range bindings {
			t.Run(b.name, func(t *testing.T) {
				c1 := bindingClient(t, napperBase(base1), b.binding, b.version)
				c2 := bindingClient(t, napperBase(base2), b.binding, b.version)
				res, err := c1.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("nap")),
					Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
				if err != nil {
					t.Fatal(err)
				}
				id := res.(*a2a.Task).ID
				if got := nw.await(t, "task: start "); got != string(id) {
					t.Fatalf("the worker started %s, want %s", got, id)
				}
				var states []a2a.TaskState
				for ev, err := range c2.SubscribeToTask(t.Context(), &a2a.SubscribeToTaskRequest{ID: id}) {
					if err != nil {
						got, gerr := c2.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id})
						t.Fatalf("%v; the task: %v %s\nworker:\n%s", err, gerr, describe(got), nw.stderr.String())
					}
					if ev.TaskInfo().TaskID != id {
						t.Fatalf("an event of task %s in the subscription to %s", ev.TaskInfo().TaskID, id)
					}
					var s a2a.TaskState
					switch ev := ev.(type) {
					case *a2a.Task:
						s = ev.Status.State
					case *a2a.TaskStatusUpdateEvent:
						s = ev.Status.State
					default:
						continue
					}
					states = append(states, s)
					if len(states) == 1 {
						// The subscription has the task as it stands: only
						// now is it canceled, through the other gateway.
						if _, err := c1.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: id}); err != nil {
							got, gerr := c2.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id})
							t.Fatalf("cancel: %v; the task: %v %s\nworker:\n%s\ngateway:\n%s", err, gerr, describe(got.Status), nw.stderr.String(), g1.stderr.String())
						}
					}
				}
				// The task, the worker's working from the start of the
				// task's events, and the end.
				if want := []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateWorking, a2a.TaskStateCanceled}; !slices.Equal(states, want) {
					t.Errorf("the subscription's states %v, want %v (the task, its events from the start, to the end)", states, want)
				}
				if got := nw.await(t, "task: "); got != "canceled "+string(id) {
					t.Errorf("the worker said %q, want the task canceled", got)
				}
			})
		}
	})

	t.Run("a capsule no worker serves answers 404", func(t *testing.T) {
		for _, c := range []struct{ method, path string }{
			{http.MethodGet, "/nobody/.well-known/agent-card.json"},
			{http.MethodPost, "/nobody"},
			{http.MethodPost, "/nobody/message:send"},
			{http.MethodGet, "/nobody/tasks"},
			{http.MethodGet, "/"},
			{http.MethodGet, "/a.b/.well-known/agent-card.json"},
		} {
			req, err := http.NewRequestWithContext(t.Context(), c.method, root+c.path, strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s: status %d, want 404", c.method, c.path, res.StatusCode)
			}
		}
	})
}

func napperBase(base string) string { return strings.TrimSuffix(base, "/agent") + "/napper" }

// capsuleDir is a project of the manifest yaml with the scripted driver
// installed.
func (e *example) capsuleDir(t *testing.T, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, zip := range e.pkgs {
		if strings.Contains(filepath.Base(zip), "scripted") {
			e.mustMur(t, dir, "install", zip)
		}
	}
	return dir
}
