package session

import (
	"log/slog"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/transcript"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/stage"
)

// withTranscript is the run's observer with the session's
// transcript.jsonl beside it (package transcript), and the closing of
// that file. A transcript that cannot be opened fails the run, as a
// trace.jsonl that cannot be: something is wrong in the session dir.
func withTranscript(sess *stage.Staged, obs observe.Observer, log *slog.Logger) (observe.Observer, func(), error) {
	w, err := transcript.Open(sess.SessionDir, transcript.Options{SessionID: sess.ID, Capsule: sess.Capsule.Name,
		Secrets: sess.Secrets(), Log: log})
	if err != nil {
		return nil, nil, diag.Wrap(launch.CodeRun, err, "%v", err)
	}
	closeFn := func() {
		if err := w.Close(); err != nil {
			log.Warn("closing the transcript", "err", err)
		}
	}
	return observe.Tee(obs, w), closeFn, nil
}
