package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/confined"
)

// historyFile is a threaded context's conversation, under
// contexts/<context id>/ in the session dir (session.md §3.7).
const historyFile = "history.json"

func (l *loop) threaded() bool {
	return l.s.Capsule.Lifecycle.Conversation == "threaded"
}

// historyPath is the context's history file relative to the session dir,
// or "" when the id cannot name a directory: an A2A caller chooses context
// ids, and one like "../out" must not place the file elsewhere.
func historyPath(contextID string) string {
	if contextID == "" || contextID == "." || contextID == ".." || strings.ContainsAny(contextID, `/\`+"\x00") {
		return ""
	}
	return filepath.Join("contexts", contextID, historyFile)
}

// loadHistory is the context's persisted conversation; missing, unreadable
// or invalid is empty.
func (l *loop) loadHistory(contextID string) []any {
	rel := historyPath(contextID)
	if rel == "" {
		return nil
	}
	root, err := os.OpenRoot(l.s.SessionDir)
	if err != nil {
		return nil
	}
	defer root.Close()
	b, err := confined.ReadFile(root, rel)
	if err != nil {
		return nil
	}
	var msgs []any
	if err := decode(string(b), &msgs); err != nil {
		l.bootstrapLog(fmt.Sprintf("[threaded] ignoring %s: %v", rel, err))
		return nil
	}
	return msgs
}

// saveHistory is step 15's threaded extras: out/result_<task>.txt for an
// A2A task, and the conversation with the final answer persisted, the
// continuation then acknowledging all of it. Failures are logged only;
// they never overwrite what was there.
func (l *loop) saveHistory(a *attemptRun, r response, text string) {
	if a.t.Source == "a2a" && a.t.ID != "" && historyPath(a.t.ID) != "" {
		if err := l.s.WriteSessionFile(filepath.Join(l.s.OutDir, "result_"+a.t.ID+".txt"), []byte(text), os.O_CREATE|os.O_TRUNC); err != nil {
			l.log.Warn("writing the task's result file", "err", err)
		}
	}
	rel := historyPath(a.t.ContextID)
	if rel == "" {
		l.bootstrapLog(fmt.Sprintf("[threaded] context id %q cannot name a history directory; history not kept", a.t.ContextID))
		return
	}
	msgs := append(append([]any{}, a.msgs...), assistantMessage(r.Content))
	b, err := encode(msgs)
	if err != nil {
		l.log.Warn("encoding the conversation history", "err", err)
		return
	}
	if err := l.s.WriteSessionFile(filepath.Join(l.s.SessionDir, rel), []byte(b), os.O_CREATE|os.O_TRUNC); err != nil {
		l.log.Warn("writing the conversation history", "err", err)
		return
	}
	if l.cont.id != "" && l.cont.contextID == a.t.ContextID {
		l.cont.acked = len(msgs)
	}
}
