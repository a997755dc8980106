package murmurhost

import (
	"crypto/x509"
	"errors"
	"log/slog"
	"time"

	"github.com/mur-go/mur/wasip2"
)

// Capsule is a script capsule's host state: what its invoke, manage and
// send imports act on. The staging layer builds one per capsule store and
// hands it to RegisterCapsule's getter. A capsule store is used by one
// goroutine at a time, so Capsule needs no locking of its own; the
// interfaces it holds must be safe if they are shared.
type Capsule struct {
	// SessionID is reported by manage.diagnostics as capsule-id.
	SessionID string

	// Allowlist names the tools the manifest declares (its `tool`
	// artifacts). invoke refuses anything else before looking further.
	Allowlist []string
	// Tools resolves allowlisted names to staged tools.
	Tools Tools

	// Inventory is the staged-artifact view behind list and describe.
	Inventory Inventory
	// Puller installs an artifact at run time (manage.pull); nil refuses
	// pull with a clear error.
	Puller Puller

	// Net is capabilities.network.allow (policy.Rules); message/send
	// checks the peer against it before connecting. Nil denies every peer.
	Net wasip2.NetPolicy
	// Resolver looks up peer host names, once per connection, through the
	// same pinned egress as wasi:http (wasip2.Egress); nil uses
	// net.DefaultResolver.
	Resolver wasip2.Resolver
	// RootCAs verifies https peers; nil uses the system's roots.
	RootCAs *x509.CertPool
	// Log receives why a send was refused; nil uses slog.Default().
	Log *slog.Logger
	// SendTimeout bounds one message/send; 0 means 30 s.
	SendTimeout time.Duration
	// Traceparent, if set, returns the W3C traceparent to send with A2A
	// requests ("" for none).
	Traceparent func() string
	// OnSend, if set, is called after each successful send so the run can
	// write a2a_send trace records once the capsule finished.
	OnSend func(SendRecord)
}

var errNoCapsule = errors.New("murmurhost: the store has no capsule host state")
