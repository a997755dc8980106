package a2a

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// OneShot is `mur send`: one message to an A2A agent, its answer streamed.
type OneShot struct {
	// HTTP is the client for every request; nil is a plain http.Client
	// (system roots for https).
	HTTP *http.Client
	// Token, if set, is sent as Authorization: Bearer.
	Token string
	// TaskID answers a task that asked for input.
	TaskID string
	// OnText receives streamed text as it arrives.
	OnText func(string)
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
	// Version is the protocol version that answered.
	Version string
}

// ErrNotCompleted is wrapped by Send's error when the task ended in any
// state but completed.
var ErrNotCompleted = errors.New("the task did not complete")

// errNoEvents is a stream that ended before its first event: a peer that
// does not speak the version asked for may answer so.
var errNoEvents = errors.New("the agent's stream ended before any event")

// Send streams text to the agent at url: v1.0 when its card offers it,
// else (or when a v1.0 request is not understood) v0.3.
func (o OneShot) Send(ctx context.Context, url, text string) (Reply, error) {
	base := url
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	base = strings.TrimSuffix(base, "/")
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	if o.Token != "" {
		c := *hc
		c.Transport = bearer{token: o.Token, next: hc.Transport}
		hc = &c
	}
	endpoints := []*sdk.AgentInterface{
		{URL: base, ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: sdk.Version},
		{URL: base, ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: a2av0.Version},
	}
	if card, err := (&agentcard.Resolver{Client: hc, CardParser: a2av0.NewAgentCardParser()}).Resolve(ctx, base); err == nil && len(card.SupportedInterfaces) > 0 {
		endpoints = card.SupportedInterfaces
	}
	var lastErr error
	for _, version := range []sdk.ProtocolVersion{sdk.Version, a2av0.Version} {
		var offered []*sdk.AgentInterface
		for _, e := range endpoints {
			if e.ProtocolVersion == version && e.ProtocolBinding == sdk.TransportProtocolJSONRPC {
				offered = append(offered, e)
			}
		}
		if len(offered) == 0 {
			continue
		}
		reply, started, err := o.stream(ctx, hc, offered, text)
		if err == nil || started || !fallback(err) {
			reply.Version = string(version)
			return reply, err
		}
		lastErr = err
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("%s offers no JSON-RPC interface of A2A 1.0 or 0.3", base)
	}
	return Reply{}, lastErr
}

// fallback reports whether a failed v1.0 request may be retried as v0.3:
// the peer did not know the method or the version.
func fallback(err error) bool {
	return errors.Is(err, errNoEvents) || errors.Is(err, sdk.ErrMethodNotFound) || errors.Is(err, sdk.ErrVersionNotSupported) ||
		errors.Is(err, sdk.ErrInvalidRequest) || errors.Is(err, sdk.ErrParseError)
}

func (o OneShot) stream(ctx context.Context, hc *http.Client, ifaces []*sdk.AgentInterface, text string) (Reply, bool, error) {
	c, err := a2aclient.NewFromEndpoints(ctx, ifaces,
		a2aclient.WithJSONRPCTransport(hc), a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: hc}))
	if err != nil {
		return Reply{}, false, err
	}
	defer c.Destroy()
	msg := sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart(text))
	msg.TaskID = sdk.TaskID(o.TaskID)
	var r Reply
	started := false
	for ev, err := range c.SendStreamingMessage(ctx, &sdk.SendMessageRequest{Message: msg}) {
		if err != nil {
			return r, started, err
		}
		started = true
		switch e := ev.(type) {
		case *sdk.Task:
			r.TaskID, r.ContextID = string(e.ID), e.ContextID
			r.setStatus(e.Status)
		case *sdk.TaskStatusUpdateEvent:
			r.TaskID, r.ContextID = string(e.TaskID), e.ContextID
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
		return r, false, errNoEvents
	}
	if r.State != "completed" {
		return r, true, fmt.Errorf("task %s ended %s: %s: %w", r.TaskID, r.State, r.Text, ErrNotCompleted)
	}
	return r, true, nil
}

func (r *Reply) setStatus(s sdk.TaskStatus) {
	r.State = strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(s.State), "TASK_STATE_")), "_", "-")
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

// bearer adds the Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	next := b.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}
