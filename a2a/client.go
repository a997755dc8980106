package a2a

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/mur-go/mur/wasip2"
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
	// Traceparent, if set, returns the W3C traceparent to send with each
	// request ("" for none).
	Traceparent func() string
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

// Send is message/send: the peer must match
// capabilities.network.allow before anything touches the network; then an
// A2A JSON-RPC message/send goes to it over HTTP, or HTTPS with real TLS
// (Murmur sends plain TCP even to https:// peers; mur-go does not).
//
// mur-go speaks the public A2A protocol (spec README decision 2): the
// message carries kind "message" and text parts of kind "text", contextId
// is omitted when the capsule gives none, the request goes to the peer
// URL's path (default "/"), and a reply that is a Message rather than a
// Task maps to state "completed" with the message's task and context ids.
func (c *Client) Send(ctx context.Context, peer string, m Message) (TaskResult, error) {
	t, err := parsePeer(peer)
	if err != nil {
		return TaskResult{}, err
	}
	egress := wasip2.NewEgress(c.Net, c.Resolver, c.Log)
	if !egress.Allows(t.scheme, t.host, t.port) {
		return TaskResult{}, fmt.Errorf("network policy: '%s' not in capabilities.network.allow", peer)
	}
	var traceparent string
	if c.Traceparent != nil {
		traceparent = c.Traceparent()
	}
	body, err := a2aRequest(m)
	if err != nil {
		return TaskResult{}, fmt.Errorf("failed to connect to %s: %w", peer, err)
	}
	timeout := c.SendTimeout
	if timeout <= 0 {
		timeout = defaultSendTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	target := *t.u
	target.Scheme = t.scheme
	if target.Path == "" {
		target.Path = "/"
	}
	target.RawQuery, target.Fragment, target.User = t.u.RawQuery, "", nil
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), bytes.NewReader(body))
	if err != nil {
		return TaskResult{}, fmt.Errorf("failed to connect to %s: %w", peer, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if traceparent != "" {
		req.Header.Set("traceparent", traceparent)
	}
	tr := egress.Transport(&tls.Config{RootCAs: c.RootCAs})
	tr.DisableKeepAlives = true // one request per send: nothing to pool
	defer tr.CloseIdleConnections()
	resp, err := a2aClient(tr).Do(req)
	if err != nil {
		var denied *wasip2.EgressDeniedError
		if errors.As(err, &denied) {
			err = denied // the policy's reason, without the URL error around it
		}
		return TaskResult{}, fmt.Errorf("failed to connect to %s: %w", peer, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxA2AResponse))
	if err != nil {
		return TaskResult{}, fmt.Errorf("failed to connect to %s: %w", peer, err)
	}
	res, err := parseA2AResponse(peer, resp.StatusCode, raw)
	if err != nil {
		return TaskResult{}, err
	}
	if c.OnSend != nil {
		c.OnSend(SendRecord{PeerURL: peer, MessageID: m.MessageID, TaskID: res.TaskID, ContextID: res.ContextID, Traceparent: traceparent})
	}
	return res, nil
}

// a2aClient sends through tr and never follows a redirect: the policy
// admitted one host, and a redirect would send the message somewhere it
// did not check.
func a2aClient(tr http.RoundTripper) *http.Client {
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

type a2aPart struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

type a2aMessage struct {
	Kind      string    `json:"kind"`
	MessageID string    `json:"messageId"`
	ContextID *string   `json:"contextId,omitempty"`
	Role      string    `json:"role"`
	Parts     []a2aPart `json:"parts"`
}

func a2aRequest(m Message) ([]byte, error) {
	// Murmur spells JSON-RPC request ids req_<uuidv7>.
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      "req_" + id.String(),
		"method":  "message/send",
		"params": map[string]any{"message": a2aMessage{
			Kind: "message", MessageID: m.MessageID, ContextID: m.ContextID, Role: "user",
			Parts: []a2aPart{{Kind: "text", Text: m.Text}},
		}},
	})
}

// parseA2AResponse maps a JSON-RPC reply to task-result with Murmur's
// error wording (wit.md §5.7).
func parseA2AResponse(peer string, status int, raw []byte) (TaskResult, error) {
	var env struct {
		Error  json.RawMessage `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		if status/100 != 2 {
			err = fmt.Errorf("HTTP %d: %w", status, err)
		}
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: %w", peer, err)
	}
	if len(env.Error) > 0 && string(env.Error) != "null" {
		var compact bytes.Buffer
		_ = json.Compact(&compact, env.Error)
		return TaskResult{}, fmt.Errorf("A2A error from %s: %s", peer, compact.String())
	}
	if len(env.Result) == 0 || string(env.Result) == "null" {
		return TaskResult{}, fmt.Errorf("no result in A2A response from %s", peer)
	}
	var res struct {
		Kind      string `json:"kind"`
		ID        string `json:"id"`
		TaskID    string `json:"taskId"`
		ContextID string `json:"contextId"`
		Status    struct {
			State string `json:"state"`
		} `json:"status"`
	}
	if err := json.Unmarshal(env.Result, &res); err != nil {
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: %w", peer, err)
	}
	if res.Kind == "message" {
		return TaskResult{TaskID: res.TaskID, ContextID: res.ContextID, State: "completed"}, nil
	}
	if res.ID == "" {
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: missing task id", peer)
	}
	if !knownTaskState(res.Status.State) {
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: unknown task state '%s'", peer, res.Status.State)
	}
	return TaskResult{TaskID: res.ID, ContextID: res.ContextID, State: res.Status.State}, nil
}
