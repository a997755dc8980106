package manifest

import (
	"reflect"
	"testing"
)

func TestRetryAndSpendCeilingErrors(t *testing.T) {
	const hdr = "name: c\nversion: '1'\ninference:\n  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n"
	const proc = "name: c\nversion: '1'\ninference:\n  transport: process\n  command: claude\n"
	for _, tc := range []struct{ name, src, path, msg string }{
		{"initial zero", hdr + "  retry: {max_retries: 2, initial_backoff_ms: 0}\n", "inference.retry.initial_backoff_ms", "must be greater than 0"},
		{"max below initial", hdr + "  retry: {initial_backoff_ms: 900, max_backoff_ms: 100}\n", "inference.retry.max_backoff_ms",
			"must be at least inference.retry.initial_backoff_ms (900) but got 100"},
		{"ceiling zero", hdr + "  max_session_tokens: 0\n", "inference.max_session_tokens", "must be greater than 0"},
		{"process retry", proc + "  retry: {max_retries: 1}\n", "inference.retry", "is not valid with transport: process"},
		{"process ceiling", proc + "  max_session_tokens: 5\n", "inference.max_session_tokens", "is not valid with transport: process"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := expectErr(t, RoleCapsule, tc.src, CodeInvalid, tc.path, tc.msg)
			if e.Msg != "invalid inference config for '"+tc.path+"': "+tc.msg {
				t.Errorf("message: %q", e.Msg)
			}
		})
	}
	expectErr(t, RoleCapsule, hdr+"  retry: {max_retries: -1}\n", CodeSyntax, "inference.retry.max_retries", "")
}

func TestRetryAndSpendCeilingValues(t *testing.T) {
	const hdr = "name: c\nversion: '1'\ninference:\n  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n"
	n := uint64(50_000)
	for _, tc := range []struct {
		name, src string
		retry     *Retry
		ceiling   *uint64
	}{
		{"absent", "", nil, nil},
		{"defaults", "  retry: {max_retries: 3}\n", &Retry{MaxRetries: 3, InitialBackoffMS: 500, MaxBackoffMS: 30_000}, nil},
		{"all", "  retry: {max_retries: 1, initial_backoff_ms: 10, max_backoff_ms: 10}\n  max_session_tokens: 50000\n",
			&Retry{MaxRetries: 1, InitialBackoffMS: 10, MaxBackoffMS: 10}, &n},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := parseCapsule(t, hdr+tc.src)
			if !reflect.DeepEqual(c.Inference.Retry, tc.retry) || !reflect.DeepEqual(c.Inference.MaxSessionTokens, tc.ceiling) {
				t.Errorf("retry %+v ceiling %v", c.Inference.Retry, c.Inference.MaxSessionTokens)
			}
		})
	}
}
