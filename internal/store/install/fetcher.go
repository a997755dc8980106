package install

import (
	"context"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/registry"
)

// Source is one place packages resolve from. Name is how messages refer
// to it (a local store's directory, a registry's URL).
type Source struct {
	Name     string
	Resolver registry.Resolver
}

// LockMode is how murmur.lock constrains a fetch.
type LockMode int

const (
	// Guard is `mur install` and manage.pull: an entry for the name must
	// pin this version and these bytes (E-REG-005); no entry passes.
	Guard LockMode = iota
	// Frozen is `mur run`: every artifact needs an entry (E-RUN-003) that
	// pins this version (E-RUN-003) and these bytes (E-REG-002).
	Frozen
)

// Payload is the entry extract reads besides murmur.yaml.
type Payload int

const (
	// PayloadNone reads only the manifest (an install stores the whole
	// package as it is).
	PayloadNone Payload = iota
	// PayloadWasm is the root component (capsule.wasm or the one root
	// *.wasm).
	PayloadWasm
	// PayloadNative is bin/<name>, a native tool's binary.
	PayloadNative
	// PayloadSkill is skill.md.
	PayloadSkill
)

// Request names the package to fetch.
type Request struct {
	Name, Version string
	// Platform is the variant to ask for (falling back to the generic
	// package); nil asks for the generic one.
	Platform *artifact.Platform
	// Payload picks the payload once the manifest is parsed; nil reads
	// none. An error it returns ends the fetch unchanged.
	Payload func(*Artifact) (Payload, error)
}

// Fetcher runs the pipeline's checks and reads: resolve, verify, lock
// check, extract. It writes nothing and is safe for concurrent use as long
// as nobody modifies Lock meanwhile.
type Fetcher struct {
	// Sources are asked in order.
	Sources []Source
	// Lock is murmur.lock; nil means there is none (Frozen then checks the
	// bytes against the recorded digests only).
	Lock *lockfile.Lock
	Mode LockMode
	// Getenv reads the decompression ceiling override; nil = os.Getenv.
	Getenv func(string) string
	// Payloads, when not nil, keeps WASM payloads inflated across
	// processes (artifact.Package.RootWasmFrom).
	Payloads artifact.PayloadCache
}

// Resolved is a package as a source returned it, not yet trusted.
type Resolved struct {
	Request
	Source  Source
	Package *registry.Resolved
}

// Artifact is a package that passed every check, held in memory.
type Artifact struct {
	// Name and Version are the requested ones.
	Name, Version string
	// Source is the name of the source it came from.
	Source string
	// SHA256 is the verified hex digest of Data, the whole .mur.zip.
	SHA256 string
	Data   []byte
	// Meta is the metadata the source reported; Platform the variant it
	// served (nil: the generic package).
	Meta     artifact.Meta
	Platform *artifact.Platform
	// ManifestYAML is murmur.yaml verbatim; Manifest is it parsed.
	ManifestYAML []byte
	Manifest     *manifest.Artifact
	// Payload is what was read into PayloadData from PayloadEntry.
	Payload      Payload
	PayloadEntry string
	PayloadData  []byte

	from registry.Resolver
}

// Pin is the murmur.lock entry for the artifact.
func (a *Artifact) Pin() lockfile.Entry {
	return lockfile.Entry{Name: a.Name, ResolvedVersion: a.Version, SHA256: lockfile.Hashes{Wasm: a.SHA256}}
}

// Fetch resolves req and accepts what it finds.
func (f *Fetcher) Fetch(ctx context.Context, req Request) (*Artifact, error) {
	r, err := f.Resolve(ctx, req)
	if err != nil {
		return nil, err
	}
	return f.Accept(ctx, r)
}

// Accept runs the checks on a resolved package (verify, then the lock)
// and only then extracts it.
func (f *Fetcher) Accept(ctx context.Context, r *Resolved) (*Artifact, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sha, err := verify(r)
	if err != nil {
		return nil, err
	}
	if err := f.checkLock(r, sha); err != nil {
		return nil, err
	}
	return f.extract(r, sha)
}
