package driverkit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Status is tool-result's status.
type Status uint8

// Status cases in canonical-ABI order.
const (
	StatusPassed Status = iota
	StatusFailed
	StatusError
)

// Result is what the driver returns to the runtime.
type Result struct {
	Status   Status
	Summary  string
	Data     string
	Metadata [][2]string
}

// Error classes reported in the error_class metadata, so the runtime
// (and an operator reading the trace) can tell why a call failed without
// parsing provider prose.
const (
	ClassRateLimited        = "rate_limited"
	ClassServer             = "server_error"
	ClassCredentialRejected = "credential_rejected"
	ClassContextLength      = "context_length"
	ClassBadRequest         = "bad_request"
	ClassNetwork            = "network"
	ClassMalformed          = "malformed_response"
	ClassRequest            = "invalid_request"
)

// Failure is a failed call, rendered by the driver error convention.
type Failure struct {
	Msg   string
	Class string
	// Status is the provider's HTTP status (0 when none was received).
	Status int
	// Transient says a retry may succeed: rate limits, server errors,
	// network failures. Credential rejections, context-length errors and
	// malformed responses never are.
	Transient  bool
	RetryAfter time.Duration // from Retry-After; 0 when absent
}

func (f *Failure) Error() string { return f.Msg }

// Result is f as tool-result: status error, summary the message, data
// {"error","stop_reason":"error"}, and the reserved transient key with
// the class, provider status and Retry-After as metadata.
func (f *Failure) Result() Result {
	// Encode's bytes for the map {"error", "stop_reason"}, by hand (see
	// EncodeResponse).
	data := string(append(appendEncoded([]byte(`{"error":`), f.Msg), `,"stop_reason":"error"}`...))
	md := [][2]string{{"transient", strconv.FormatBool(f.Transient)}, {"error_class", f.Class}}
	if f.Status != 0 {
		md = append(md, [2]string{"provider_status", strconv.Itoa(f.Status)})
	}
	if f.RetryAfter > 0 {
		md = append(md, [2]string{"retry_after_ms", strconv.FormatInt(f.RetryAfter.Milliseconds(), 10)})
	}
	return Result{Status: StatusError, Summary: f.Msg, Data: data, Metadata: md}
}

// maxErrorBody bounds the provider body quoted in an error message.
const maxErrorBody = 2000

// HTTPFailure classifies a non-2xx provider answer. contextLength reports
// whether the provider's body says the prompt was too long.
func HTTPFailure(status int, body []byte, retryAfter time.Duration, contextLength func([]byte) bool) *Failure {
	text := strings.TrimSpace(string(body))
	if len(text) > maxErrorBody {
		text = text[:maxErrorBody] + "…"
	}
	f := &Failure{Msg: fmt.Sprintf("HTTP %d: %s", status, text), Status: status, RetryAfter: retryAfter}
	switch {
	case status == 401 || status == 403:
		f.Class = ClassCredentialRejected
	case status == 429:
		f.Class, f.Transient = ClassRateLimited, true
	case status == 408 || status >= 500:
		f.Class, f.Transient = ClassServer, true
	case status == 413 || (contextLength != nil && contextLength(body)):
		f.Class = ClassContextLength
	default:
		f.Class = ClassBadRequest
	}
	return f
}

// RetryAfter reads retry-after-ms (OpenAI's) or Retry-After (seconds or
// an HTTP date); 0 when absent or unusable.
func RetryAfter(get func(string) string, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(get("retry-after-ms")), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(get("retry-after"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || s > 86400 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := time.Parse(time.RFC1123, v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
