package httpbound

import (
	"log/slog"
	"sync"
	"time"
)

// noticeEvery spaces the notices of refusals: an attack makes thousands.
const noticeEvery = 10 * time.Second

// throttle lets a notice through at most once per noticeEvery and says
// how many it held back since the last.
type throttle struct {
	mu   sync.Mutex
	last time.Time
	held int
}

func (t *throttle) warn(log *slog.Logger, msg string, args ...any) {
	t.mu.Lock()
	now := time.Now()
	if !t.last.IsZero() && now.Sub(t.last) < noticeEvery {
		t.held++
		t.mu.Unlock()
		return
	}
	held := t.held
	t.last, t.held = now, 0
	t.mu.Unlock()
	if held > 0 {
		args = append(args, "refused_since_last_notice", held)
	}
	log.Warn(msg, args...)
}
