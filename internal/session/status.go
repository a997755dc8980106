package session

import (
	"errors"

	"github.com/mur-go/mur/internal/launch"
)

// Status is how a run ended, as `mur run` prints it ("status:  ok").
type Status string

// The outcomes a run reports: Murmur's three, and cancelled for a run an
// interrupt or a signal stopped (it must never read as ok).
const (
	StatusOK        Status = "ok"
	StatusFailed    Status = "failed"
	StatusTrapped   Status = "trapped"
	StatusCancelled Status = "cancelled"
)

// StatusOf is the status a run that returned err ends with: the marks
// on its chain (launch.ErrCancelled, launch.ErrTrapped) say which; a
// failure with neither ends failed.
func StatusOf(err error) Status {
	switch {
	case err == nil:
		return StatusOK
	case errors.Is(err, launch.ErrCancelled):
		return StatusCancelled
	case errors.Is(err, launch.ErrTrapped):
		return StatusTrapped
	}
	return StatusFailed
}
