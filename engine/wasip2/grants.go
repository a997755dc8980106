package wasip2

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// Grants is everything a guest may reach. The zero value grants nothing:
// no directories, empty environment and arguments, empty stdin, discarded
// stdout and stderr, no network.
type Grants struct {
	// Dirs are the preopened directories, in the order the guest sees them.
	Dirs []DirGrant
	// Env is the guest's whole environment, exactly these pairs in order;
	// nothing is inherited from the host process.
	Env [][2]string
	// Args are the guest's arguments (by convention Args[0] is a program
	// name; the host adds nothing).
	Args []string
	// Cwd is reported by wasi:cli/environment.initial-cwd; "" reports none.
	Cwd string
	// Stdin is the whole of the guest's standard input.
	Stdin []byte
	// Stdout and Stderr receive the guest's output.
	Stdout, Stderr Output
	// Net decides which HTTP destinations the guest may reach; nil: no
	// network at all.
	Net NetPolicy
	// Resolver looks up the host names of allowed requests, once per
	// connection; nil uses net.DefaultResolver.
	Resolver Resolver
	// Credential, when set, is a secret the host adds to the guest's HTTP
	// requests to one origin and redacts from every response.
	Credential *Credential
	// Log receives why a request was refused; nil uses slog.Default().
	Log *slog.Logger
	// MaxOpenFiles caps the host descriptors (files and directories) the
	// guest holds open at once, streams included; zero or less means
	// DefaultMaxOpenFiles. Going over it ends the call with a
	// *component.LimitError naming LimitOpenFiles.
	MaxOpenFiles int
}

// DefaultMaxOpenFiles is the descriptor cap of a Grants that sets none:
// far more than a tool needs, far less than the process may open.
const DefaultMaxOpenFiles = 256

// LimitOpenFiles is the Limit of the *component.LimitError a guest gets
// for holding more than Grants.MaxOpenFiles descriptors.
const LimitOpenFiles = "open file descriptors"

// DirGrant preopens host directory Host for the guest as Guest.
type DirGrant struct {
	Host     string
	Guest    string
	ReadOnly bool
	// Hide names entries directly under Host that the guest can neither
	// see nor reach: they are left out of directory listings, and every
	// path operation that would resolve to or through them (open, stat,
	// create, remove, rename, link, readlink, a symlink's target) fails as
	// if they did not exist. The runtime puts what it later executes or
	// trusts there (tools/, trace.jsonl, .murmur/, and murmur.yaml, .env,
	// murmur.lock where a workdir holds them). Names compare without
	// regard to case, as a case-insensitive filesystem would. Operations
	// that would create an entry at a hidden name (create, mkdir, symlink,
	// rename or link to it) fail with access instead, whether or not the
	// entry exists.
	Hide []string
}

// ParseDirGrant parses the command-line form HOST[::GUEST][:ro|:rw]. GUEST
// defaults to HOST as written; access defaults to read-write.
func ParseDirGrant(s string) (DirGrant, error) {
	var d DirGrant
	rest := s
	switch {
	case strings.HasSuffix(rest, ":ro"):
		d.ReadOnly, rest = true, strings.TrimSuffix(rest, ":ro")
	case strings.HasSuffix(rest, ":rw"):
		rest = strings.TrimSuffix(rest, ":rw")
	}
	host, guest, ok := strings.Cut(rest, "::")
	if !ok {
		guest = host
	}
	if host == "" || guest == "" {
		return DirGrant{}, fmt.Errorf("invalid directory grant %q: want HOST[::GUEST][:ro]", s)
	}
	d.Host, d.Guest = host, guest
	return d, nil
}

// ParseEnv parses the command-line form KEY=VALUE.
func ParseEnv(s string) ([2]string, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return [2]string{}, fmt.Errorf("invalid environment entry %q: want KEY=VALUE", s)
	}
	return [2]string{k, v}, nil
}

// Output is where one guest output stream goes. The guest's bytes are
// written to W and, if set, Tee (e.g. a log file); once Max bytes have been
// written (Max > 0), the rest is dropped and Ctx.Truncated reports it, so
// a chatty guest cannot exhaust memory or disk. A nil W discards.
type Output struct {
	W   io.Writer
	Tee io.Writer
	Max int64
}

// cappedWriter is shared by every handle a guest opens on one stdio stream.
type cappedWriter struct {
	out       Output
	mu        sync.Mutex
	written   int64
	truncated bool
}

func newCappedWriter(o Output) *cappedWriter { return &cappedWriter{out: o} }

func (w *cappedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(b)
	if w.out.Max > 0 {
		if room := w.out.Max - w.written; int64(len(b)) > room {
			b = b[:max(room, 0)]
			w.truncated = true
		}
	}
	w.written += int64(len(b))
	var err1, err2 error
	if w.out.W != nil && len(b) > 0 {
		_, err1 = w.out.W.Write(b)
	}
	if w.out.Tee != nil && len(b) > 0 {
		_, err2 = w.out.Tee.Write(b)
	}
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("writing guest output: %w", errors.Join(err1, err2))
	}
	return n, nil
}

func (w *cappedWriter) isTruncated() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.truncated
}
