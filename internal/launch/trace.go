package launch

import (
	"encoding/json"
	"os"
	"time"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/remote/a2a"
	"github.com/mur-go/mur/internal/stage"
)

// sendRecord is an a2a_send line of trace.jsonl (a2a-cli.md §7); absent
// optionals serialize as null.
type sendRecord struct {
	EventType   string  `json:"event_type"`
	SessionID   string  `json:"session_id"`
	Timestamp   int64   `json:"timestamp"`
	PeerURL     string  `json:"peer_url"`
	MessageID   string  `json:"message_id"`
	TaskID      string  `json:"task_id"`
	ContextID   string  `json:"context_id"`
	Traceparent *string `json:"traceparent"`
}

// writeSendRecords appends one a2a_send record per successful
// message/send to the session's trace.jsonl, refusing a trace.jsonl link
// (the capsule could have planted one to make the runtime append
// elsewhere).
func writeSendRecords(sessionDir, sessionID string, sends []a2a.SendRecord) error {
	if len(sends) == 0 {
		return nil
	}
	root, err := os.OpenRoot(sessionDir)
	if err != nil {
		return err
	}
	defer root.Close()
	f, err := confined.OpenFile(root, stage.TraceFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	now := time.Now().UnixMilli()
	for _, r := range sends {
		rec := sendRecord{EventType: "a2a_send", SessionID: sessionID, Timestamp: now, PeerURL: r.PeerURL,
			MessageID: r.MessageID, TaskID: r.TaskID, ContextID: r.ContextID}
		if r.Traceparent != "" {
			rec.Traceparent = &r.Traceparent
		}
		if err := enc.Encode(rec); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
