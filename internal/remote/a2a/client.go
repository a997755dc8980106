package a2a

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/mur-go/mur/engine/wasip2"
)

// Client sends A2A messages to peers for a capsule's murmur:message/send.
// The zero Client has no network policy and so refuses every peer.
type Client struct {
	// Net is capabilities.network.allow (policy.Rules); Send checks the
	// peer against it before connecting. Nil denies every peer.
	Net wasip2.NetPolicy
	// Resolver looks up peer host names, once per connection, through the
	// same pinned egress as wasi:http (wasip2.Egress); nil uses
	// net.DefaultResolver.
	Resolver wasip2.Resolver
	// RootCAs verifies https peers; nil uses the system's roots.
	RootCAs *x509.CertPool
	// Log receives why a send was refused; nil uses slog.Default().
	Log *slog.Logger
	// SendTimeout bounds one send; 0 means 30 s.
	SendTimeout time.Duration
	// Trace is the span the sends belong to (a script capsule's session),
	// sent as traceparent; a trace ctx carries (WithTrace) wins. The zero
	// value sends none.
	Trace TraceContext
	// OnSend, if set, is called after each successful send so the run can
	// write a2a_send trace records once the capsule finished.
	OnSend func(SendRecord)
}

// Message is murmur:message's message record: what a capsule sends.
type Message struct {
	MessageID string
	ContextID *string
	Text      string
}

// TaskResult is murmur:message's task-result record: the peer's task as
// its reply describes it.
type TaskResult struct {
	TaskID    string
	ContextID string
	State     string
}

// SendRecord is one successful message/send, for the a2a_send trace record.
type SendRecord struct {
	PeerURL     string
	MessageID   string
	TaskID      string
	ContextID   string
	Traceparent string // "" when none was sent
}

const (
	defaultSendTimeout = 30 * time.Second
	maxA2AResponse     = 16 << 20
)

// knownTaskState reports whether s is a task state of the public A2A
// protocol; Murmur's six are a subset. Anything else in a reply is refused.
func knownTaskState(s string) bool {
	switch s {
	case "submitted", "working", "input-required", "completed", "canceled", "failed", "rejected", "auth-required", "unknown":
		return true
	}
	return false
}

// peerTarget is a parsed peer URL: where to connect and what the network
// rules see.
type peerTarget struct {
	u      *url.URL
	scheme string
	host   string // lower-case, IPv6 in brackets
	port   uint16
}

// parsePeer parses a peer URL; one without "://" is taken as http://<url>
// (wit.md §5.7).
func parsePeer(peer string) (peerTarget, error) {
	raw := peer
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return peerTarget{}, fmt.Errorf("invalid peer URL '%s': %w", peer, err)
	}
	t := peerTarget{u: u, scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname())}
	if t.scheme != "http" && t.scheme != "https" {
		return peerTarget{}, fmt.Errorf("invalid peer URL '%s': unsupported scheme '%s' (expected http or https)", peer, t.scheme)
	}
	if t.host == "" {
		return peerTarget{}, fmt.Errorf("invalid peer URL '%s'", peer)
	}
	if strings.Contains(t.host, ":") {
		t.host = "[" + t.host + "]"
	}
	t.port = 80
	if t.scheme == "https" {
		t.port = 443
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return peerTarget{}, fmt.Errorf("invalid peer URL '%s': invalid port number", peer)
		}
		t.port = uint16(n)
	}
	return t, nil
}

// Send is message/send: the peer must match capabilities.network.allow
// before anything touches the network; then the message goes to it over
// A2A 1.0, or 0.3 where the peer speaks only that (discover.go has the
// rule), over HTTP or HTTPS with real TLS (Murmur sends plain TCP even to
// https:// peers; mur-go does not). Every request (the card, each
// endpoint, each redirect hop) passes the same policy check and dials
// through the pinned egress. The send returns once the peer has the task
// (returnImmediately; 0.3 blocking: false), as Murmur's does.
//
// mur-go speaks the public A2A protocol (spec README decision 2): the
// message has one text part, contextId is omitted when the capsule gives
// none, and a reply that is a Message rather than a Task maps to state
// "completed" with the message's task and context ids. A traceparent
// goes with every request: the one ctx carries (WithTrace), else Trace.
func (c *Client) Send(ctx context.Context, peer string, m Message) (TaskResult, error) {
	t, err := parsePeer(peer)
	if err != nil {
		return TaskResult{}, err
	}
	egress := wasip2.NewEgress(c.Net, c.Resolver, c.Log)
	if !egress.Allows(t.scheme, t.host, t.port) {
		return TaskResult{}, &PolicyError{URL: peer}
	}
	timeout := c.SendTimeout
	if timeout <= 0 {
		timeout = defaultSendTimeout
	}
	ctx, cancel := context.WithTimeout(withDefaultTrace(ctx, c.Trace), timeout)
	defer cancel()
	tc, _ := TraceFrom(ctx)
	tr := egress.Transport(&tls.Config{RootCAs: c.RootCAs})
	// The card and the message share one connection where the peer keeps
	// it open, so one send is one lookup of the peer's name; a new
	// connection is checked again.
	defer tr.CloseIdleConnections()
	admit := func(u *url.URL) error {
		p, err := parsePeer(u.String())
		if err != nil || !egress.Allows(p.scheme, p.host, p.port) {
			return &PolicyError{URL: u.String()}
		}
		return nil
	}
	hc := newHTTPClient(&guard{admit: admit, next: tr, maxBody: maxA2AResponse})
	base := *t.u
	base.Scheme, base.RawQuery, base.Fragment, base.User = t.scheme, t.u.RawQuery, "", nil
	if base.Path == "" {
		base.Path = "/"
	}
	eps, err := discover(ctx, hc, base.String(), admit)
	if err != nil {
		return TaskResult{}, sendError(peer, err)
	}
	msg := sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart(m.Text))
	if m.MessageID != "" {
		msg.ID = m.MessageID
	}
	if m.ContextID != nil {
		msg.ContextID = *m.ContextID
	}
	req := &sdk.SendMessageRequest{Message: msg, Config: &sdk.SendMessageConfig{ReturnImmediately: true}}
	out, _, err := each(eps, func(e *endpoint) (TaskResult, error) {
		if major(e.ProtocolVersion) == "0" {
			return sendV03(ctx, hc, e.URL, peer, msg)
		}
		return withSDK(ctx, hc, e, func(cl *a2aclient.Client) (TaskResult, error) {
			res, err := cl.SendMessage(ctx, req)
			if err != nil {
				return TaskResult{}, sendError(peer, err)
			}
			return taskResult(peer, res)
		})
	})
	if err != nil {
		return TaskResult{}, err
	}
	if c.OnSend != nil {
		c.OnSend(SendRecord{PeerURL: peer, MessageID: msg.ID, TaskID: out.TaskID, ContextID: out.ContextID, Traceparent: tc.String()})
	}
	return out, nil
}

// taskResult is task-result for a 1.0 reply.
func taskResult(peer string, res sdk.SendMessageResult) (TaskResult, error) {
	var out TaskResult
	switch r := res.(type) {
	case *sdk.Task:
		out = TaskResult{TaskID: string(r.ID), ContextID: r.ContextID, State: stateName(r.Status.State)}
		if out.TaskID == "" {
			return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: missing task id", peer)
		}
		if !knownTaskState(out.State) {
			return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: unknown task state '%s'", peer, r.Status.State)
		}
	case *sdk.Message:
		out = TaskResult{TaskID: string(r.TaskID), ContextID: r.ContextID, State: "completed"}
	default:
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: a reply that is neither a task nor a message", peer)
	}
	return out, nil
}

// sendError words a failed send as Murmur does (wit.md §5.7): the peer
// unreachable or refused by the policy, an A2A error, or a reply that
// did not parse.
func sendError(peer string, err error) error {
	var (
		pe     *PolicyError
		denied *wasip2.EgressDeniedError
		ae     *sdk.Error
		ue     *url.Error
	)
	switch {
	case errors.As(err, &pe):
		return pe
	case errors.As(err, &denied):
		return fmt.Errorf("failed to connect to %s: %w", peer, denied) // the policy's reason, without the URL error around it
	case errors.As(err, &ae):
		return fmt.Errorf("A2A error from %s: %w", peer, err)
	case errors.As(err, &ue), errors.Is(err, context.DeadlineExceeded):
		return connectError(peer, err)
	}
	return fmt.Errorf("failed to parse A2A task from %s: %w", peer, err)
}
