package host

import (
	"errors"

	"github.com/mur-go/mur/internal/remote/a2a"
	"github.com/mur-go/mur/internal/tools"
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
	Tools tools.Tools

	// Inventory is the staged-artifact view behind list and describe.
	Inventory tools.Inventory
	// Puller installs an artifact at run time (manage.pull); nil refuses
	// pull with a clear error.
	Puller tools.Puller

	// A2A sends message/send; its network policy decides which peers the
	// capsule may reach. Nil denies every peer.
	A2A *a2a.Client
}

var errNoCapsule = errors.New("host: the store has no capsule host state")
