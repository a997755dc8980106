package a2a

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// protocols are the bindings the card advertises, each driven through the
// official Go SDK's client.
var protocols = []struct {
	name    string
	binding a2a.TransportProtocol
	version a2a.ProtocolVersion
}{
	{"v1.0 JSON-RPC", a2a.TransportProtocolJSONRPC, a2a.Version},
	{"v1.0 HTTP+JSON", a2a.TransportProtocolHTTPJSON, a2a.Version},
	{"v0.3 JSON-RPC", a2a.TransportProtocolJSONRPC, a2av0.Version},
}

// client resolves the card and connects to exactly one of its interfaces.
func client(t *testing.T, s *served, binding a2a.TransportProtocol, version a2a.ProtocolVersion) *a2aclient.Client {
	t.Helper()
	ctx := t.Context()
	parser := agentcard.DefaultCardParser
	if version == a2av0.Version {
		parser = a2av0.NewAgentCardParser()
	}
	card, err := (&agentcard.Resolver{Client: http.DefaultClient, CardParser: parser}).Resolve(ctx, s.url)
	if err != nil {
		t.Fatalf("resolving the card: %v", err)
	}
	var iface *a2a.AgentInterface
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == binding && i.ProtocolVersion == version {
			iface = i
		}
	}
	if iface == nil {
		t.Fatalf("the card has no %s %s interface: %+v", binding, version, card.SupportedInterfaces)
	}
	c, err := a2aclient.NewFromEndpoints(ctx, []*a2a.AgentInterface{iface},
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{}))
	if err != nil {
		t.Fatalf("client for %s %s: %v", binding, version, err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}

func userMessage(text string) *a2a.SendMessageRequest {
	return &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))}
}

func taskOf(t *testing.T, res a2a.SendMessageResult) *a2a.Task {
	t.Helper()
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("SendMessage returned %T, want a Task", res)
	}
	return task
}

func statusText(task *a2a.Task) string {
	if task.Status.Message == nil {
		return ""
	}
	return messageText(task.Status.Message)
}

func artifactText(task *a2a.Task, id a2a.ArtifactID) string {
	for _, a := range task.Artifacts {
		if a.ID == id {
			var b strings.Builder
			for _, p := range a.Parts {
				b.WriteString(p.Text())
			}
			return b.String()
		}
	}
	return ""
}

func TestCardIsCompleteForBothVersions(t *testing.T) {
	s := serve(t)
	resp, err := http.Get(s.url + CardPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var raw map[string]any
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatalf("card is not JSON: %v\n%s", err, body)
	}
	for _, key := range []string{"name", "description", "version", "supportedInterfaces", "capabilities", "defaultInputModes", "defaultOutputModes", "skills", "protocolVersion", "url", "preferredTransport"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("card lacks %q:\n%s", key, body)
		}
	}
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			c := client(t, s, p.binding, p.version)
			_ = c
		})
	}
	v0, err := a2av0.NewAgentCardParser()(body)
	if err != nil || !v0.Capabilities.Streaming || v0.Name != "test-capsule" {
		t.Errorf("v0.3 parser: card %+v, err %v", v0, err)
	}
}

func TestSendBlocksAndGetCarriesReply(t *testing.T) {
	s := serve(t)
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			c := client(t, s, p.binding, p.version)
			res, err := c.SendMessage(t.Context(), userMessage("hello "+p.name))
			if err != nil {
				t.Fatal(err)
			}
			task := taskOf(t, res)
			want := "echo: hello " + p.name
			if task.Status.State != a2a.TaskStateCompleted || statusText(task) != want {
				t.Fatalf("blocking send returned %s %q, want completed %q", task.Status.State, statusText(task), want)
			}
			if !strings.HasPrefix(string(task.ID), "tsk_") || len(task.ID) != 36 || !strings.HasPrefix(task.ContextID, "ctx_") {
				t.Errorf("ids %q / %q, want tsk_/ctx_ + 32 hex", task.ID, task.ContextID)
			}
			got, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: task.ID})
			if err != nil {
				t.Fatal(err)
			}
			if got.Status.State != a2a.TaskStateCompleted || statusText(got) != want || artifactText(got, responseArtifact) != want {
				t.Errorf("GetTask after completion: %s %q, response artifact %q; want the reply %q", got.Status.State, statusText(got), artifactText(got, responseArtifact), want)
			}
			if p.version != a2av0.Version { // v0.3 has no tasks/list
				list, err := c.ListTasks(t.Context(), &a2a.ListTasksRequest{ContextID: task.ContextID})
				if err != nil {
					t.Fatal(err)
				}
				if len(list.Tasks) != 1 || list.Tasks[0].ID != task.ID {
					t.Errorf("ListTasks by context: %+v", list.Tasks)
				}
			}
			if _, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: "tsk_00000000000000000000000000000000"}); err == nil {
				t.Error("GetTask of an unknown id succeeded")
			}
		})
	}
}

func TestStreamChunksArriveBeforeCompletion(t *testing.T) {
	s := serve(t)
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			gate := make(chan struct{})
			s.loop.gate = gate
			c := client(t, s, p.binding, p.version)
			var chunks []string
			var states []a2a.TaskState
			released := false
			for ev, err := range c.SendStreamingMessage(t.Context(), userMessage("chunks:al,pha,bet")) {
				if err != nil {
					t.Fatal(err)
				}
				switch e := ev.(type) {
				case *a2a.TaskArtifactUpdateEvent:
					if e.Artifact.ID == responseArtifact && !e.LastChunk {
						chunks = append(chunks, e.Artifact.Parts[0].Text())
					}
					if len(chunks) == 3 && !released {
						released = true
						close(gate) // the loop completes only after the client saw every chunk
					}
				case *a2a.TaskStatusUpdateEvent:
					states = append(states, e.Status.State)
				case *a2a.Task:
					states = append(states, e.Status.State)
				}
			}
			if !slices.Equal(chunks, []string{"al", "pha", "bet"}) {
				t.Errorf("chunks %q", chunks)
			}
			if len(states) == 0 || states[0] != a2a.TaskStateSubmitted || states[len(states)-1] != a2a.TaskStateCompleted || !slices.Contains(states, a2a.TaskStateWorking) {
				t.Errorf("states %v, want submitted … working … completed", states)
			}
		})
	}
}

func TestCancelStopsTheTaskAndServingGoesOn(t *testing.T) {
	s := serve(t)
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			c := client(t, s, p.binding, p.version)
			var id a2a.TaskID
			cancelled := make(chan *a2a.Task, 1)
			for ev, err := range c.SendStreamingMessage(t.Context(), userMessage("block")) {
				if err != nil {
					t.Fatal(err)
				}
				if st, ok := ev.(*a2a.TaskStatusUpdateEvent); ok && st.Status.State == a2a.TaskStateWorking && id == "" {
					id = st.TaskID
					go func() {
						task, err := c.CancelTask(context.Background(), &a2a.CancelTaskRequest{ID: id})
						if err != nil {
							t.Errorf("CancelTask: %v", err)
						}
						cancelled <- task
					}()
				}
			}
			task := <-cancelled
			if task == nil || task.Status.State != a2a.TaskStateCanceled {
				t.Fatalf("after CancelTask: %+v", task)
			}
			res, err := c.SendMessage(t.Context(), userMessage("still here"))
			if err != nil || taskOf(t, res).Status.State != a2a.TaskStateCompleted {
				t.Fatalf("a send after the cancel: %v %v", res, err)
			}
		})
	}
}

func TestResubscribeAfterDroppedConnectionLosesNothing(t *testing.T) {
	s := serve(t)
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			gate := make(chan struct{})
			s.loop.gate = gate
			c := client(t, s, p.binding, p.version)
			ctx, drop := context.WithCancel(t.Context())
			var id a2a.TaskID
			for ev, err := range c.SendStreamingMessage(ctx, userMessage("chunks:one,two,three")) {
				if err != nil {
					t.Fatal(err)
				}
				if e, ok := ev.(*a2a.TaskArtifactUpdateEvent); ok && e.Artifact.ID == responseArtifact {
					id = e.TaskID
					break // the connection drops after the first chunk
				}
			}
			drop()
			if id == "" {
				t.Fatal("no chunk arrived")
			}
			var snapshot *a2a.Task
			var last a2a.TaskState
			for ev, err := range c.SubscribeToTask(t.Context(), &a2a.SubscribeToTaskRequest{ID: id}) {
				if err != nil {
					t.Fatal(err)
				}
				switch e := ev.(type) {
				case *a2a.Task:
					snapshot = e
					close(gate)
				case *a2a.TaskStatusUpdateEvent:
					last = e.Status.State
				}
			}
			if snapshot == nil || artifactText(snapshot, responseArtifact) != "onetwothree" {
				t.Fatalf("resubscribe snapshot carries %q, want every chunk sent so far", artifactText(snapshot, responseArtifact))
			}
			if last != a2a.TaskStateCompleted {
				t.Errorf("resubscribed stream ended %s, want completed", last)
			}
		})
	}
}

func TestInputRequiredRoundTrip(t *testing.T) {
	s := serve(t)
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			c := client(t, s, p.binding, p.version)
			res, err := c.SendMessage(t.Context(), userMessage("ask:which colour?"))
			if err != nil {
				t.Fatal(err)
			}
			task := taskOf(t, res)
			if task.Status.State != a2a.TaskStateInputRequired || statusText(task) != "which colour?" {
				t.Fatalf("send returned %s %q, want input-required with the prompt", task.Status.State, statusText(task))
			}
			// The server answers other requests while the task waits.
			if _, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: task.ID}); err != nil {
				t.Fatal(err)
			}
			answer := a2a.NewMessageForTask(a2a.MessageRoleUser, task, a2a.NewTextPart("blue"))
			res, err = c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: answer})
			if err != nil {
				t.Fatal(err)
			}
			done := taskOf(t, res)
			if done.ID != task.ID || done.Status.State != a2a.TaskStateCompleted || statusText(done) != "got blue" {
				t.Fatalf("after the answer: %s %s %q", done.ID, done.Status.State, statusText(done))
			}
		})
	}
}

func TestFiftyQueuedTasksNoneLostOrDuplicated(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			s := serve(t, lifecycle(AcceptQueue, "sleep", 50))
			c := client(t, s, p.binding, p.version)
			const n = 50
			var wg sync.WaitGroup
			ids := make([]a2a.TaskID, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req := userMessage("task " + strings.Repeat("x", i))
					req.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
					res, err := c.SendMessage(context.Background(), req)
					if err != nil {
						t.Errorf("send %d: %v", i, err)
						return
					}
					ids[i] = taskOf(t, res).ID
				}()
			}
			wg.Wait()
			seen := map[a2a.TaskID]bool{}
			for i, id := range ids {
				if id == "" || seen[id] {
					t.Fatalf("task %d id %q empty or duplicated", i, id)
				}
				seen[id] = true
			}
			deadline := time.Now().Add(60 * time.Second)
			for _, id := range ids {
				for {
					task, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id})
					if err != nil {
						t.Fatal(err)
					}
					if task.Status.State == a2a.TaskStateCompleted {
						break
					}
					if task.Status.State.Terminal() || time.Now().After(deadline) {
						t.Fatalf("task %s ended %s", id, task.Status.State)
					}
					sub := c.SubscribeToTask(t.Context(), &a2a.SubscribeToTaskRequest{ID: id})
					for range sub {
					}
				}
			}
			ran := s.loop.tasks()
			if len(ran) != n {
				t.Fatalf("the loop ran %d tasks, want %d", len(ran), n)
			}
			runIDs := map[string]bool{}
			for _, r := range ran {
				if runIDs[r.ID] || !seen[a2a.TaskID(r.ID)] {
					t.Fatalf("task %s ran twice or was never sent", r.ID)
				}
				runIDs[r.ID] = true
			}
		})
	}
}

// A client of a widely bound capsule reaches it by another name than
// localhost; the card's interfaces must send it back to that name, and a
// Host header that is not a host never reaches the card.
func TestCardNamesTheHostTheClientUsed(t *testing.T) {
	s := serve(t)
	port := strings.TrimPrefix(s.url, "http://localhost:")
	tests := []struct{ host, want string }{
		{"127.0.0.1:" + port, "http://127.0.0.1:" + port},
		{"agents.example:8443", "http://agents.example:8443"},
		{"[::1]:" + port, "http://[::1]:" + port},
		{"evil/path?x=1", s.url},
		{"a\"b", s.url},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+CardPath, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = tt.host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var card struct {
				URL        string `json:"url"`
				Interfaces []struct {
					URL string `json:"url"`
				} `json:"supportedInterfaces"`
			}
			if resp.StatusCode == http.StatusBadRequest {
				return // net/http refused the header itself
			}
			if err := json.NewDecoder(resp.Body).Decode(&card); err != nil {
				t.Fatal(err)
			}
			if len(card.Interfaces) == 0 {
				t.Fatal("no interfaces")
			}
			for _, i := range card.Interfaces {
				if i.URL != tt.want {
					t.Errorf("interface URL %q, want %q", i.URL, tt.want)
				}
			}
		})
	}
}
