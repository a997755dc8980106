package registry

import (
	"context"

	"github.com/mur-go/mur/internal/format/artifact"
)

// Resolver fetches a package. A non-nil platform asks for that variant and
// falls back to the generic package.
type Resolver interface {
	Resolve(ctx context.Context, name, version string, platform *artifact.Platform) (*Resolved, error)
}

// Publisher adds a package; published versions are never overwritten.
type Publisher interface {
	Publish(ctx context.Context, meta artifact.Meta, data []byte) (*Published, error)
}

// Lister lists what a registry holds.
type Lister interface {
	List(ctx context.Context) ([]artifact.Meta, error)
}

// Registry is a store that resolves, publishes and lists.
type Registry interface {
	Resolver
	Publisher
	Lister
}

// Resolved is a package as a registry returned it: the bytes and the sha256
// the registry recorded for them, not yet checked against each other.
type Resolved struct {
	Name, Version string
	Data          []byte
	SHA256        string // recorded digest (sidecar or x-murmur-sha256)
	Meta          artifact.Meta
	Platform      *artifact.Platform // the variant served; nil for generic
}

// Verify checks the bytes against the recorded digest (E-REG-002).
func (r *Resolved) Verify() error {
	_, err := r.Digest()
	return err
}

// Digest is Verify returning the digest it took of the bytes (lower-case
// hex), for a caller that needs it too: the bytes are hashed once.
func (r *Resolved) Digest() (string, error) {
	got := artifact.SHA256Hex(r.Data)
	if !artifact.SameDigest(got, r.SHA256) {
		return "", IntegrityError(r.Name, r.Version, r.SHA256, got)
	}
	return got, nil
}

// Published is the outcome of a publish.
type Published struct {
	ArtifactID string `json:"artifact_id"` // "<name>@<version>"
	SHA256     string `json:"sha256"`
}
