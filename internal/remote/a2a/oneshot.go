package a2a

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	neturl "net/url"
	"strings"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

// OneShot is `mur send`: one message to an A2A agent, its answer streamed.
type OneShot struct {
	// Transport carries every request; nil is http.DefaultTransport
	// (system roots for https). Tests put a loopback CA here.
	Transport http.RoundTripper
	// Token, if set, is sent as Authorization: Bearer, to the agent's own
	// origin only.
	Token string
	// TaskID answers a task that asked for input; ContextID, if set, puts
	// a new task in that conversation.
	TaskID, ContextID string
	// Trace is sent as traceparent with every request (TraceFromEnv for a
	// send of its own); a trace ctx carries (WithTrace) wins.
	Trace TraceContext
	// OnText receives streamed text as it arrives.
	OnText func(string)
	// OnTask, if set, is told the task's id and context id once, as soon
	// as the agent names them.
	OnTask func(taskID, contextID string)
}

// Reply is how the task ended.
type Reply struct {
	TaskID    string
	ContextID string
	// State is the public state without its TASK_STATE_ prefix, lower-case
	// (completed, failed, input-required, …).
	State string
	// Text is the status message of the last status (the answer, the
	// failure, or the question asked).
	Text string
	// Streamed reports whether OnText received any text.
	Streamed bool
	// Version is the protocol version that answered, Binding its binding.
	Version, Binding string
}

// ErrNotCompleted is wrapped by Send's error when the task ended in any
// state but completed.
var ErrNotCompleted = errors.New("the task did not complete")

// Send streams text to the agent at url, speaking what its card offers
// (discover.go has the rule).
func (o OneShot) Send(ctx context.Context, url, text string) (Reply, error) {
	base := httpBase(url)
	hc := o.client(base)
	ctx = withDefaultTrace(ctx, o.Trace)
	eps, err := discover(ctx, hc, base, nil)
	if err != nil {
		return Reply{}, connectError(url, err)
	}
	r, e, err := each(eps, func(e *endpoint) (Reply, error) {
		return withSDK(ctx, hc, e, func(c *a2aclient.Client) (Reply, error) { return o.stream(ctx, c, text) })
	})
	if e != nil {
		r.Version, r.Binding = string(e.ProtocolVersion), string(e.ProtocolBinding)
	}
	if err != nil && !errors.Is(err, ErrNotCompleted) && tlsProblem(err) != "" {
		err = connectError(url, err)
	}
	return r, err
}

// client is the guarded HTTP client for requests to base.
func (o OneShot) client(base string) *http.Client {
	g := &guard{token: o.Token, next: o.Transport}
	if u, err := neturl.Parse(base); err == nil {
		g.origin = originOf(u)
	}
	return newHTTPClient(g)
}

// startedError is a stream that failed after its first event: the peer
// took the message, so it is never sent again elsewhere.
type startedError struct{ err error }

func (e *startedError) Error() string { return e.err.Error() }
func (e *startedError) Unwrap() error { return e.err }

func (o OneShot) stream(ctx context.Context, c *a2aclient.Client, text string) (Reply, error) {
	msg := sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart(text))
	msg.TaskID = sdk.TaskID(o.TaskID)
	msg.ContextID = o.ContextID
	var r Reply
	started, named := false, false
	name := func() {
		if !named && r.TaskID != "" && o.OnTask != nil {
			named = true
			o.OnTask(r.TaskID, r.ContextID)
		}
	}
	for ev, err := range c.SendStreamingMessage(ctx, &sdk.SendMessageRequest{Message: msg}) {
		if err != nil {
			if started {
				return r, &startedError{err}
			}
			return r, err
		}
		started = true
		switch e := ev.(type) {
		case *sdk.Task:
			r.TaskID, r.ContextID = string(e.ID), e.ContextID
			name()
			r.setStatus(e.Status)
		case *sdk.TaskStatusUpdateEvent:
			r.TaskID, r.ContextID = string(e.TaskID), e.ContextID
			name()
			r.setStatus(e.Status)
		case *sdk.TaskArtifactUpdateEvent:
			if e.Append && e.Artifact.ID == "response" && o.OnText != nil {
				for _, p := range e.Artifact.Parts {
					if t := p.Text(); t != "" {
						r.Streamed = true
						o.OnText(t)
					}
				}
			}
		case *sdk.Message:
			r.State, r.Text = "completed", messageText(e)
		}
	}
	if !started {
		return r, errNoEvents
	}
	if r.State != "completed" {
		return r, &startedError{fmt.Errorf("task %s ended %s: %s: %w", r.TaskID, r.State, r.Text, ErrNotCompleted)}
	}
	return r, nil
}

func (r *Reply) setStatus(s sdk.TaskStatus) {
	r.State = stateName(s.State)
	if s.Message != nil {
		r.Text = messageText(s.Message)
	}
}

func messageText(m *sdk.Message) string {
	var parts []string
	for _, p := range m.Parts {
		if t := p.Text(); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}
