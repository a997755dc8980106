package inference

import (
	"fmt"
	"sync"
)

// Meter is the spend ceiling of inference.max_session_tokens: each call
// is admitted before dispatch against its input estimate plus its output
// cap, then charged what it cost. Once a call is refused the meter
// latches and refuses every later call, however small, so a session
// never resumes spending after it was told it had reached its budget.
// A nil Meter, or one with no limit, admits everything. It is safe for
// concurrent use (the loop and async hooks share one).
type Meter struct {
	limit uint64

	mu      sync.Mutex
	spent   uint64
	latched *CeilingError
}

// NewMeter is a meter of limit tokens; nil limit is no ceiling.
func NewMeter(limit *uint64) *Meter {
	if limit == nil {
		return nil
	}
	return &Meter{limit: *limit}
}

// CeilingError is a refused call.
type CeilingError struct {
	Limit, Spent, Requested uint64
}

func (e *CeilingError) Error() string {
	return fmt.Sprintf("spend ceiling reached: inference.max_session_tokens is %d; this session has spent %d tokens and the next driver call needs up to %d (input estimate + output cap); retrying will not help: raise inference.max_session_tokens or give the agent a smaller task",
		e.Limit, e.Spent, e.Requested)
}

// Admit admits a call that needs up to requested tokens, or returns the
// refusal (the latched one once any call was refused).
func (m *Meter) Admit(requested uint64) error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.latched != nil {
		return m.latched
	}
	if sat(m.spent, requested) > m.limit {
		m.latched = &CeilingError{Limit: m.limit, Spent: m.spent, Requested: requested}
		return m.latched
	}
	return nil
}

// Charge adds a finished call's cost.
func (m *Meter) Charge(tokens uint64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.spent = sat(m.spent, tokens)
	m.mu.Unlock()
}

// Spent is what was charged so far.
func (m *Meter) Spent() uint64 {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.spent
}
