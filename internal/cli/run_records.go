package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/stage"
)

// printRecords names, for an agent capsule's run, the session files that
// say what the agent did, so a user need not know the workdir layout:
// out/result.txt (the answer or the error) and trace.jsonl (every turn and
// tool call), each only if the run wrote it.
func printRecords(w io.Writer, s *stage.Staged) {
	if s == nil || s.Capsule == nil || s.Capsule.Inference == nil {
		return
	}
	for _, f := range []struct{ label, rel string }{
		{"result:  ", filepath.Join("out", "result.txt")},
		{"trace:   ", "trace.jsonl"},
	} {
		path := filepath.Join(s.SessionDir, f.rel)
		if _, err := os.Lstat(path); err == nil {
			fmt.Fprintf(w, "%s%s\n", f.label, path)
		}
	}
}

// printAnswer prints an agent capsule's final answer, its out/result.txt,
// last on stdout, so `mur run --task … > answer.md` keeps it (the path is
// in -v's "result:" line). The file is read as every file a guest could
// have written is (no planted link followed) and without the session's
// secrets.
func (r *runner) printAnswer(s *stage.Staged) {
	if s == nil || s.Capsule == nil || s.Capsule.Inference == nil {
		return
	}
	f, err := s.OpenResult()
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		r.log.Warn("not printing the answer", "err", err)
		return
	}
	defer f.Close()
	var out io.Writer = r.stdout
	if _, tty := terminal(r.app.stdout); tty {
		// On a terminal the answer is shown, never obeyed: a model's
		// escape sequences would act on the user's screen.
		out = &shownText{w: out}
	}
	w := &lastByte{w: s.Secrets().Writer(out)}
	if _, err := io.Copy(w, f); err != nil {
		r.log.Warn("printing the answer", "err", err)
	}
	if err := w.w.Flush(); err != nil {
		r.log.Warn("printing the answer", "err", err)
	}
	if st, ok := out.(*shownText); ok && st.tail != "" {
		st.tail = ""
		if _, err := io.WriteString(st.w, "\uFFFD"); err != nil {
			r.log.Warn("printing the answer", "err", err)
		}
	}
	if w.last != '\n' && w.n > 0 {
		fmt.Fprintln(r.stdout)
	}
}

// shownText writes text as a terminal may show it (streamText), holding
// back a rune split across writes.
type shownText struct {
	w    io.Writer
	tail string
}

func (t *shownText) Write(p []byte) (int, error) {
	whole, tail := splitRune(t.tail + string(p))
	t.tail = tail
	if _, err := io.WriteString(t.w, streamText(whole)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// lastByte is a writer that remembers how much went through it and the
// last byte, so the answer can end its line.
type lastByte struct {
	w    *redact.Writer
	n    int64
	last byte
}

func (l *lastByte) Write(p []byte) (int, error) {
	if len(p) > 0 {
		l.n += int64(len(p))
		l.last = p[len(p)-1]
	}
	return l.w.Write(p)
}

// printWaiting says at once, on stderr, that an agent capsule with no
// task waits for one over A2A, for how long, and how to give it one.
func (r *runner) printWaiting(url string, wait time.Duration) {
	if wait < 0 {
		fmt.Fprintf(r.stderr, "mur: waiting for tasks over A2A at %s; send one with: mur send %s \"TEXT\"\n", url, url)
		return
	}
	fmt.Fprintf(r.stderr, "mur: no task given: waiting %s for one over A2A at %s, then ending\n"+
		"  send one with: mur send %s \"TEXT\"   (or run with --task FILE|TEXT; %s sets the wait)\n",
		wait, url, url, a2a.TimeoutEnv)
}
