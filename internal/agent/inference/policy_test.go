package inference

import (
	"context"
	"errors"
	"testing"
	"time"
)

func md(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestRetryable(t *testing.T) {
	for _, tt := range []struct {
		name   string
		reason string
		md     []string
		want   bool
	}{
		{"dispatch failure", ReasonDispatch, nil, true},
		{"non-passed status without metadata", ReasonDriverError, nil, true},
		{"stop_reason error", ReasonModelError, nil, true},
		{"429", ReasonDriverError, []string{"provider_status", "429"}, true},
		{"503", ReasonDriverError, []string{"provider_status", "503"}, true},
		{"408", ReasonDriverError, []string{"provider_status", "408"}, true},
		{"400", ReasonDriverError, []string{"provider_status", "400"}, false},
		{"transient true wins over a 400", ReasonDriverError, []string{"transient", "true", "provider_status", "400"}, true},
		{"transient false wins over a 500", ReasonDriverError, []string{"transient", "false", "provider_status", "500"}, false},
		{"credential rejected even if transient", ReasonDriverError, []string{"transient", "true", "error_class", "credential_rejected"}, false},
		{"401 even if transient", ReasonDriverError, []string{"transient", "true", "provider_status", "401"}, false},
		{"403", ReasonDriverError, []string{"provider_status", "403"}, false},
		{"malformed even if transient", ReasonDriverError, []string{"transient", "true", "error_class", "malformed_response"}, false},
		{"unusable transient ignored", ReasonDriverError, []string{"transient", "maybe"}, true},
		{"unusable status ignored", ReasonDriverError, []string{"provider_status", "99999"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromMetadata(tt.reason, "x", md(tt.md...)).Retryable(); got != tt.want {
				t.Errorf("Retryable = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRetryAfterMetadata(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want time.Duration
	}{{"1500", 1500 * time.Millisecond}, {"0", 0}, {"-4", 0}, {"x", 0}, {"99999999999999", 24 * time.Hour}} {
		if got := FromMetadata(ReasonDriverError, "", md("retry_after_ms", tt.v)).RetryAfter; got != tt.want {
			t.Errorf("retry_after_ms %q: %v, want %v", tt.v, got, tt.want)
		}
	}
}

func TestDelay(t *testing.T) {
	p := func(j float64) Policy {
		return Policy{MaxRetries: 10, Initial: 100 * time.Millisecond, Max: time.Second, Jitter: func() float64 { return j }}
	}
	for _, tt := range []struct {
		name   string
		n      int
		jitter float64
		after  time.Duration
		lo, hi time.Duration // want lo <= d <= hi
	}{
		{"first, low jitter", 1, 0, 0, 50 * time.Millisecond, 50 * time.Millisecond},
		{"first, high jitter", 1, 0.999, 0, 50 * time.Millisecond, 100 * time.Millisecond},
		{"second doubles", 2, 0, 0, 100 * time.Millisecond, 100 * time.Millisecond},
		{"third", 3, 0.5, 0, 200 * time.Millisecond, 400 * time.Millisecond},
		{"capped at max", 9, 0.999, 0, 500 * time.Millisecond, time.Second},
		{"far past the cap does not overflow", 200, 0.999, 0, 500 * time.Millisecond, time.Second},
		{"retry-after wins", 1, 0.5, 7 * time.Second, 7 * time.Second, 7 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := p(tt.jitter).Delay(tt.n, Failure{RetryAfter: tt.after})
			if d < tt.lo || d > tt.hi {
				t.Errorf("delay %v, want in [%v, %v]", d, tt.lo, tt.hi)
			}
		})
	}
	// The real jitter source stays within the bounds too.
	real := Policy{Initial: 100 * time.Millisecond, Max: time.Second}
	for range 200 {
		if d := real.Delay(2, Failure{}); d < 100*time.Millisecond || d >= 200*time.Millisecond {
			t.Fatalf("jittered delay %v outside [100ms, 200ms)", d)
		}
	}
}

// fakeClock fires every After at once and records the delays.
type fakeClock struct {
	now    time.Time
	delays []time.Duration
}

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.delays = append(c.delays, d)
	ch := make(chan time.Time, 1)
	ch <- c.now.Add(d)
	return ch
}

// blockedClock never fires.
type blockedClock struct{}

func (blockedClock) Now() time.Time                       { return time.Unix(0, 0) }
func (blockedClock) After(time.Duration) <-chan time.Time { return nil }

func TestNext(t *testing.T) {
	now := time.Unix(1000, 0)
	p := Policy{MaxRetries: 2, Initial: time.Second, Max: 4 * time.Second, Jitter: func() float64 { return 0 }, Clock: &fakeClock{now: now}}
	bg := context.Background()
	deadline, cancel := context.WithDeadline(bg, now.Add(3*time.Second))
	defer cancel()
	for _, tt := range []struct {
		name    string
		ctx     context.Context
		retries int
		f       Failure
		want    time.Duration
		err     error
	}{
		{"first retry", bg, 0, Failure{Reason: ReasonDispatch}, 500 * time.Millisecond, nil},
		{"second retry", bg, 1, Failure{Reason: ReasonDispatch}, time.Second, nil},
		{"spent", bg, 2, Failure{Reason: ReasonDispatch}, 0, errExhausted},
		{"not transient", bg, 0, Failure{Class: classCredentialRejected}, 0, errNotRetryable},
		{"within the deadline", deadline, 0, Failure{RetryAfter: 2 * time.Second}, 2 * time.Second, nil},
		{"past the deadline", deadline, 0, Failure{RetryAfter: 5 * time.Second}, 0, ErrPastDeadline},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := p.Next(tt.ctx, tt.retries, tt.f)
			if d != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("Next = %v, %v; want %v, %v", d, err, tt.want, tt.err)
			}
		})
	}
	if _, err := (Policy{}).Next(bg, 0, Failure{}); !errors.Is(err, errExhausted) {
		t.Errorf("the zero policy retried: %v", err)
	}
}

func TestWait(t *testing.T) {
	c := &fakeClock{}
	if err := (Policy{Clock: c}).Wait(context.Background(), time.Hour); err != nil || len(c.delays) != 1 || c.delays[0] != time.Hour {
		t.Errorf("Wait = %v, delays %v", err, c.delays)
	}
	cause := errors.New("stopped by SIGINT")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() { done <- (Policy{Clock: blockedClock{}}).Wait(ctx, time.Hour) }()
	cancel(cause)
	if err := <-done; !errors.Is(err, cause) {
		t.Errorf("Wait after cancel = %v, want the cause", err)
	}
}
