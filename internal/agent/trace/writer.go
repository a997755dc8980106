package trace

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/jsonline"
	"github.com/mur-go/mur/internal/base/redact"
)

// FileName is the trace's name in the session dir.
const FileName = "trace.jsonl"

// Writer appends records to one trace.jsonl. Every Write is one write(2)
// of a whole line straight to the file, with no buffer in this process:
// a line is in the file once Write returns, and a crash or kill -9 after
// it loses nothing but the lines not yet written. Safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	// f is nil once closed.
	f         *jsonline.File
	sessionID string
	now       func() time.Time
}

// Open opens (creating, appending) dir/trace.jsonl, refusing a planted
// link at that name: guests can write the session dir. now nil is
// time.Now. Every line is written with secrets redacted: records carry
// guests' text (a model's answer, a tool's input and output, errors), and
// redacting the encoded line covers every record type, present and to
// come.
func Open(dir, sessionID string, now func() time.Time, secrets *redact.Redactor) (*Writer, error) {
	if now == nil {
		now = time.Now
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("opening trace.jsonl: %w", err)
	}
	defer root.Close()
	f, err := confined.OpenFile(root, FileName, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening trace.jsonl: %w", err)
	}
	return &Writer{f: jsonline.New(f, secrets), sessionID: sessionID, now: now}, nil
}

// Record is what Write takes: a record type with Common first.
type Record interface{ common() *Common }

func (c *Common) common() *Common { return c }

// Write stamps rec with its event type, the session id and the time, and
// appends it as one line.
func (w *Writer) Write(eventType string, rec Record) error {
	c := rec.common()
	c.EventType, c.SessionID, c.Timestamp = eventType, w.sessionID, w.now().UnixMilli()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return fmt.Errorf("writing a %s record: trace.jsonl is closed", eventType)
	}
	if err := w.f.Write(rec); err != nil {
		return fmt.Errorf("writing a %s record: %w", eventType, err)
	}
	return nil
}

// Close syncs and closes the file; later Writes fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	f := w.f
	w.f = nil
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing trace.jsonl: %w", err)
	}
	return nil
}
