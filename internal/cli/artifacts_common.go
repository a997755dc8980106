package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
)

// Helpers shared by build, publish, install, list and registry serve.

// projectRoot is the nearest ancestor of dir (dir included) holding
// murmur.yaml: the project whose store and murmur.lock install uses.
func projectRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, artifact.ManifestEntry)); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", &diag.Error{Code: artifact.CodeNotFound, Err: fs.ErrNotExist,
				Msg:  "no project root found (no murmur.yaml in current or parent directories)",
				Hint: "run this inside a capsule directory, or use 'mur install -g <name@version>' for the global store"}
		}
		d = parent
	}
}

// isTerminal reports whether w is a terminal, without cgo: a character
// device that is not /dev/null.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(info, null)
}

// progress draws one self-replacing status line on stderr when stderr is a
// terminal, and nothing otherwise: plain output stays plain lines.
type progress struct {
	w    io.Writer
	tty  bool
	mu   sync.Mutex
	last time.Time
	on   bool
}

func (a *app) newProgress() *progress { return &progress{w: a.stderr, tty: isTerminal(a.stderr)} }

// transfer is a registry.ProgressFunc.
func (p *progress) transfer(label string, done, total int64) {
	if total > 0 {
		p.status(fmt.Sprintf("%s  %s / %s", label, humanBytes(done), humanBytes(total)), done == total)
	} else {
		p.status(fmt.Sprintf("%s  %s", label, humanBytes(done)), false)
	}
}

// status replaces the status line, at most every 80 ms unless force.
func (p *progress) status(s string, force bool) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !force && time.Since(p.last) < 80*time.Millisecond {
		return
	}
	p.last, p.on = time.Now(), true
	fmt.Fprintf(p.w, "\r\x1b[K%s", s)
}

// clear removes the status line so the next output starts clean.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.on = false
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// shortSHA abbreviates a digest for human output.
func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// cwd returns the working directory as a coded error on failure.
func cwd() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", &diag.Error{Code: artifact.CodeIO, Err: err, Msg: "cannot determine the working directory: " + err.Error()}
	}
	return d, nil
}

// maxArgs accepts up to n positional arguments, as a usage error beyond.
func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef(cmd, "unexpected argument %q", args[n])
		}
		return nil
	}
}
