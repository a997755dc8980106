package traceview

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/diag"
)

// Ref is one trace file: Name inside the directory Dir, named Path in
// messages (as the user gave it, or the workdir joined with the session).
type Ref struct {
	Dir, Name, Path string
}

// SessionDir is the directory the trace is in: the session directory
// for a session's trace.
func (r Ref) SessionDir() string {
	return filepath.Dir(filepath.Join(r.Dir, filepath.FromSlash(r.Name)))
}

// Load opens and decodes the trace ref names. The file is opened inside
// Dir without following a link in its place and only if it is a regular
// file: a guest that can write the session directory can plant a link
// to a file of the user's, or a FIFO that would hold mur waiting.
func Load(ref Ref) (*Trace, error) {
	root, err := os.OpenRoot(ref.Dir)
	if err != nil {
		return nil, openError(ref, err)
	}
	defer root.Close()
	f, err := confined.OpenFile(root, ref.Name, os.O_RDONLY, 0)
	if err != nil {
		return nil, openError(ref, err)
	}
	defer f.Close()
	return Decode(f, ref.Path)
}

func openError(ref Ref, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return diag.Wrap(CodeNotFound, err, "trace file not found: %s", ref.Path)
	case errors.Is(err, confined.ErrSymlink):
		return diag.Wrap(CodeIO, err, "refusing to read %s: it is a symbolic link, and mur follows none where a guest could have planted it", ref.Path).
			WithHint("pass the path of the file it points to")
	case errors.Is(err, confined.ErrNotRegular):
		return diag.Wrap(CodeIO, err, "refusing to read %s: it is not a regular file", ref.Path)
	}
	return diag.Wrap(CodeIO, err, "failed to read %s: %v", ref.Path, err)
}

// Summarize is the summary of the trace ref names: Load, then the checks
// of Summary.
func Summarize(ref Ref) (*Summary, error) {
	t, err := Load(ref)
	if err != nil {
		return nil, err
	}
	return t.Summary()
}
