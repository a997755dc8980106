package inference

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/mur-go/mur/internal/format/manifest"
)

// Clock is the time a policy waits on; tests give one that needs no
// real waiting.
type Clock interface {
	Now() time.Time
	// After delivers once d has passed.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Policy is inference.retry in effect: which failures are sent again, how
// often and after how long. The zero Policy never retries.
type Policy struct {
	MaxRetries int
	// Initial is the first backoff; it doubles per retry up to Max.
	Initial, Max time.Duration
	// Jitter returns a value in [0, 1); nil is math/rand/v2.
	Jitter func() float64
	// Clock is what backoffs wait on; nil is the real clock.
	Clock Clock
}

// NewPolicy is the policy of a manifest's inference.retry (nil: none).
func NewPolicy(r *manifest.Retry) Policy {
	if r == nil {
		return Policy{}
	}
	return Policy{MaxRetries: int(r.MaxRetries),
		Initial: time.Duration(r.InitialBackoffMS) * time.Millisecond, Max: time.Duration(r.MaxBackoffMS) * time.Millisecond}
}

// ErrPastDeadline is why a retry was not made: its backoff would end
// after the session's deadline.
var ErrPastDeadline = errors.New("the backoff would end past the session deadline")

// Delay is the backoff before retry number n (1-based) of f: the
// provider's Retry-After when it gave one, else the exponential backoff
// Initial·2^(n-1), capped at Max, with equal jitter: a delay in
// [b/2, b), so concurrent sessions spread out but never retry at once.
func (p Policy) Delay(n int, f Failure) time.Duration {
	if f.RetryAfter > 0 {
		return f.RetryAfter
	}
	b := p.Initial
	for i := 1; i < n && b < p.Max; i++ {
		b *= 2
	}
	b = min(b, p.Max)
	if b <= 0 {
		return 0
	}
	jitter := p.Jitter
	if jitter == nil {
		jitter = rand.Float64
	}
	half := b / 2
	return half + time.Duration(jitter()*float64(b-half))
}

// Next decides on f after retries retries already made: whether to send
// the call again, and after which delay. A failure no retry can help,
// a spent budget, or a backoff that would end past ctx's deadline
// (ErrPastDeadline) each say no.
func (p Policy) Next(ctx context.Context, retries int, f Failure) (time.Duration, error) {
	if !f.Retryable() {
		return 0, errNotRetryable
	}
	if retries >= p.MaxRetries {
		return 0, errExhausted
	}
	d := p.Delay(retries+1, f)
	if dl, ok := ctx.Deadline(); ok && p.clock().Now().Add(d).After(dl) {
		return 0, ErrPastDeadline
	}
	return d, nil
}

var (
	errNotRetryable = errors.New("the failure is not transient")
	errExhausted    = errors.New("the retries are spent")
)

// Wait waits d on the policy's clock, or until ctx is done (its cause is
// then returned): a cancelled session stops at once, mid-backoff.
func (p Policy) Wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return context.Cause(ctx)
	}
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-p.clock().After(d):
		return nil
	}
}

func (p Policy) clock() Clock {
	if p.Clock == nil {
		return realClock{}
	}
	return p.Clock
}
