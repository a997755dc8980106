package transcript

import (
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/jsonline"
	"github.com/mur-go/mur/internal/base/redact"
)

// Options are what Open needs besides the directory.
type Options struct {
	SessionID, Capsule string
	// Secrets is the session's redactor (nil: none).
	Secrets *redact.Redactor
	// Log receives the one warning of a write that failed (nil: slog.Default).
	Log *slog.Logger
	// Now stamps the session line (nil: time.Now).
	Now func() time.Time
}

// Writer is an observe.Observer that appends each step to
// transcript.jsonl. Every line is one write(2) straight to the file, with
// no buffer in this process: a line is in the file once Observe returns.
// Observe cannot fail the run: the transcript is for reading afterwards,
// trace.jsonl is the record; the first failed write is logged and the
// transcript ends there. Safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	// f is nil once closed.
	f       *jsonline.File
	secrets *redact.Redactor
	log     *slog.Logger
	failed  bool
	// tasks is what each task under way has sent and streamed.
	tasks map[string]*taskState
}

// Open creates dir/transcript.jsonl, which must not exist (a file planted
// there, link or not, is refused: guests can write the session dir), only
// its owner may read (it holds everything the model and the tools said),
// and writes the session line.
func Open(dir string, o Options) (*Writer, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", FileName, err)
	}
	defer root.Close()
	f, err := confined.OpenFile(root, FileName, os.O_CREATE|os.O_EXCL|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", FileName, err)
	}
	w := &Writer{f: jsonline.New(f, o.Secrets), secrets: o.Secrets, log: o.Log, tasks: map[string]*taskState{}}
	first := Entry{Kind: KindSession, Time: o.Now().UTC(), Version: Version, SessionID: o.SessionID, Capsule: o.Capsule, Cap: Cap}
	if err := w.write(&first); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Observe appends e's entry (a streamed piece is held until enough has
// streamed; see the package's format).
func (w *Writer) Observe(e observe.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil || w.failed {
		return
	}
	for _, en := range w.entries(e) {
		if err := w.write(&en); err != nil {
			w.failed = true
			w.log.Warn("the transcript ends here: writing it failed", "file", FileName, "err", err)
			return
		}
	}
}

// write appends en as one line, its text without the session's secrets
// and cut to Cap. Called with mu held (or before w is shared).
func (w *Writer) write(en *Entry) error {
	if w.secrets.Active() {
		en.Text, en.Error = w.secrets.String(en.Text), w.secrets.String(en.Error)
	}
	en.capText()
	if err := w.f.Write(en); err != nil {
		return fmt.Errorf("writing a %s entry: %w", en.Kind, err)
	}
	return nil
}

// Close writes what is still held of streamed answers, syncs and closes
// the file; later events are dropped.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	if !w.failed {
		for _, st := range w.tasks {
			if en, ok := st.flush(); ok {
				if err := w.write(&en); err != nil {
					w.failed = true
					break
				}
			}
		}
	}
	f := w.f
	w.f = nil
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", FileName, err)
	}
	return nil
}
