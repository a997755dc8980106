package manifest

import "go.yaml.in/yaml/v3"

var retryKeys = []string{"max_retries", "initial_backoff_ms", "max_backoff_ms"}

// Defaults of inference.retry (beyond Murmur 0.2.0, session.md §13). With
// no retry block nothing is retried, as in Murmur 0.2.0.
const (
	DefaultRetryInitialBackoffMS = 500
	DefaultRetryMaxBackoffMS     = 30_000
)

// Retry is inference.retry: how often a transient driver failure is sent
// again and how long the backoff between tries may grow.
type Retry struct {
	// MaxRetries is the number of retries after the first call; 0 never
	// retries.
	MaxRetries uint32
	// InitialBackoffMS is the first backoff before jitter; it doubles on
	// each retry up to MaxBackoffMS. A provider's Retry-After wins over
	// both.
	InitialBackoffMS uint32
	MaxBackoffMS     uint32
}

func (d *decoder) retry(f field, ok bool, bad func(*yaml.Node, string, string, string, ...any)) *Retry {
	o := d.optMap(f, ok, "inference.retry", retryKeys)
	if o == nil {
		return nil
	}
	r := &Retry{InitialBackoffMS: DefaultRetryInitialBackoffMS, MaxBackoffMS: DefaultRetryMaxBackoffMS}
	mf, mok := o.get("max_retries")
	if v, good := d.optUint(mf, mok, "inference.retry.max_retries", 32); good && v != nil {
		r.MaxRetries = uint32(*v)
	}
	inF, inOK := o.get("initial_backoff_ms")
	if v, good := d.optUint(inF, inOK, "inference.retry.initial_backoff_ms", 32); good && v != nil {
		if *v == 0 {
			bad(inF.v, "inference.retry.initial_backoff_ms", "give a positive delay in milliseconds, or remove the key for the default (500)", "must be greater than 0")
		}
		r.InitialBackoffMS = uint32(*v)
	}
	maxF, maxOK := o.get("max_backoff_ms")
	if v, good := d.optUint(maxF, maxOK, "inference.retry.max_backoff_ms", 32); good && v != nil {
		r.MaxBackoffMS = uint32(*v)
		if r.MaxBackoffMS < r.InitialBackoffMS {
			bad(maxF.v, "inference.retry.max_backoff_ms", "raise max_backoff_ms to at least initial_backoff_ms",
				"must be at least inference.retry.initial_backoff_ms (%d) but got %d", r.InitialBackoffMS, r.MaxBackoffMS)
		}
	}
	return r
}

// spendCeiling reads inference.max_session_tokens (beyond Murmur 0.2.0):
// the session's token budget across every driver call; nil is none.
func (d *decoder) spendCeiling(f field, ok bool, bad func(*yaml.Node, string, string, string, ...any)) *uint64 {
	v, good := d.optUint(f, ok, "inference.max_session_tokens", 64)
	if !good || v == nil {
		return nil
	}
	if *v == 0 {
		bad(f.v, "inference.max_session_tokens", "give a positive token budget, or remove the key for no ceiling", "must be greater than 0")
	}
	n := uint64(*v)
	return &n
}
