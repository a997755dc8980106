package stage

import (
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/redact"
)

// ResultFile is out/result.txt's name in the out dir.
const ResultFile = "result.txt"

// Workdir is where a staged session's files are (session.md §7.1), and
// the one way the runtime writes them: inside the session dir, following
// no planted link, with the session's secrets redacted. Stage fills it;
// every part of the runtime that reads or writes the session's files gets
// a copy.
type Workdir struct {
	// AccessibleDir is what guests see as ".", the shell's cwd and where
	// task.md lives: the --workdir DIR, else SessionDir.
	AccessibleDir string
	// SessionDir holds the bookkeeping: tools/, out/, logs/, MURMUR.md,
	// trace.jsonl. <manifest-dir>/workdir/<ID>, or DIR/.murmur/<ID> with
	// --workdir.
	SessionDir string
	// ToolsDir is SessionDir/tools; OutDir SessionDir/out; LogsDir
	// SessionDir/logs.
	ToolsDir, OutDir, LogsDir string
	// UserWorkdir reports whether --workdir was given (AccessibleDir !=
	// SessionDir).
	UserWorkdir bool

	// trusted is what the capsule's runs trust (trustedPaths): hidden
	// from every WASM preopen, never inside a subprocess's workdir.
	trusted []TrustedPath
	// secrets are what no text a guest sends out may carry.
	secrets *redact.Redactor
}

// NewWorkdir is the Workdir of a session laid out at accessible and
// session, whose writes redact secrets (nil: a redactor of its own), for
// what runs a session its own way: tests and benchmarks. It trusts no
// path beyond the runtime's own entries.
func NewWorkdir(accessible, session string, secrets *redact.Redactor) Workdir {
	if secrets == nil {
		secrets = redact.New()
	}
	return Workdir{AccessibleDir: accessible, SessionDir: session,
		ToolsDir: filepath.Join(session, "tools"), OutDir: filepath.Join(session, "out"), LogsDir: filepath.Join(session, "logs"),
		UserWorkdir: accessible != session, secrets: secrets}
}

// Secrets is the session's redactor: the inference api_key from staging
// on, and what the runtime adds for the session's life (the A2A token,
// a tool bridge's token while it serves). Every path from a guest to the
// outside goes through it.
func (w Workdir) Secrets() *redact.Redactor { return w.secrets }

// WriteSessionFile writes data to path, a file under the session dir,
// opened with os.O_WRONLY|flag, creating its directory. Guests and tools
// can write the session dir too, so the write stays inside it and never
// follows a link planted at path: a planted link fails the write instead.
// What the runtime writes there (results, logs, history) carries text
// from guests, so the session's secrets are redacted from data.
func (w Workdir) WriteSessionFile(path string, data []byte, flag int) error {
	data = w.secrets.Bytes(data)
	root, rel, err := w.sessionRoot(path)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return err
	}
	return confined.WriteFile(root, rel, data, 0o644, flag)
}

// ReplaceSessionFile makes path, a file directly or deeper under the
// session dir, hold exactly data (the session's secrets redacted), as a
// file of its own: whatever a guest or tool left there, a link, a FIFO
// or a file with other names, is removed rather than written through.
// For the records the runtime writes once a session is over, which must
// be its own whatever the session planted.
func (w Workdir) ReplaceSessionFile(path string, data []byte) error {
	data = w.secrets.Bytes(data)
	root, rel, err := w.sessionRoot(path)
	if err != nil {
		return err
	}
	defer root.Close()
	return confined.Replace(root, rel, data, 0o644)
}

// WriteResult replaces out/result.txt, the attempt's terminal outcome.
func (w Workdir) WriteResult(text string) error {
	return w.WriteSessionFile(filepath.Join(w.OutDir, ResultFile), []byte(text), os.O_CREATE|os.O_TRUNC)
}

// OpenResult opens out/result.txt to read, as the runtime reads every
// file a guest or a tool could have written: inside the session dir, the
// last element never followed if it is a link, and nothing but a regular
// file opened (a planted FIFO is refused, not waited on).
func (w Workdir) OpenResult() (*os.File, error) {
	root, err := os.OpenRoot(w.SessionDir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	rel, err := filepath.Rel(w.SessionDir, filepath.Join(w.OutDir, ResultFile))
	if err != nil {
		return nil, err
	}
	return confined.OpenFile(root, rel, os.O_RDONLY, 0)
}

// AppendBootstrap appends line to logs/bootstrap.log, the session's
// record of what the runtime set up and decided.
func (w Workdir) AppendBootstrap(line string) error {
	return w.WriteSessionFile(filepath.Join(w.LogsDir, BootstrapLog), []byte(line+"\n"), os.O_CREATE|os.O_APPEND)
}

// sessionRoot is the session dir opened as an os.Root and path relative
// to it, for a write that must stay inside the session dir.
func (w Workdir) sessionRoot(path string) (*os.Root, string, error) {
	rel, err := filepath.Rel(w.SessionDir, path)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(w.SessionDir)
	if err != nil {
		return nil, "", err
	}
	return root, rel, nil
}
