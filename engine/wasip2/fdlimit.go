package wasip2

import (
	"sync"

	"github.com/mur-go/mur/engine/component"
)

// fdBudget counts the host descriptors one store's guest holds open, so a
// guest cannot take every descriptor the process may have and starve the
// host (and the other stores) of them.
type fdBudget struct {
	mu   sync.Mutex
	open int
	max  int
}

func newFDBudget(max int) *fdBudget {
	if max <= 0 {
		max = DefaultMaxOpenFiles
	}
	return &fdBudget{max: max}
}

// take reserves one descriptor before it is opened; the caller gives it
// back with put if the open fails or when the descriptor is closed.
func (b *fdBudget) take() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open >= b.max {
		return &component.LimitError{Limit: LimitOpenFiles, Desired: uint64(b.open + 1), Max: uint64(b.max)}
	}
	b.open++
	return nil
}

func (b *fdBudget) put() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.open--
}
