package inference

import (
	"strconv"
	"time"
)

// Reasons a driver call failed, as the retry record names them.
const (
	// ReasonDispatch: the driver could not be called (instantiate, trap,
	// deadline).
	ReasonDispatch = "dispatch_failed"
	// ReasonDriverError: the driver answered a status other than passed.
	ReasonDriverError = "driver_error"
	// ReasonModelError: a passed answer with stop_reason error.
	ReasonModelError = "model_error"
)

// Error classes drivers report in error_class metadata that no retry can
// fix, whatever else the metadata says.
const (
	classCredentialRejected = "credential_rejected"
	classMalformed          = "malformed_response"
)

// Failure is one failed driver call, read from the driver's answer.
type Failure struct {
	Reason string
	// Err is the failure's text, for the retry record.
	Err string
	// Class is the driver's error_class metadata ("" when absent).
	Class string
	// Transient is the driver's transient metadata; nil when absent.
	Transient *bool
	// ProviderStatus is the provider's HTTP status; 0 when unknown.
	ProviderStatus int
	// RetryAfter is the provider's Retry-After as the driver reported
	// it (retry_after_ms); 0 when absent.
	RetryAfter time.Duration
}

// FromMetadata is a failure with the driver's metadata read through get
// (the first value of a key, "" when absent): transient, error_class,
// provider_status, retry_after_ms. Unusable values count as absent.
func FromMetadata(reason, err string, get func(key string) string) Failure {
	f := Failure{Reason: reason, Err: err, Class: get("error_class")}
	if b, perr := strconv.ParseBool(get("transient")); perr == nil {
		f.Transient = &b
	}
	if s, perr := strconv.Atoi(get("provider_status")); perr == nil && s >= 100 && s <= 999 {
		f.ProviderStatus = s
	}
	if ms, perr := strconv.ParseInt(get("retry_after_ms"), 10, 64); perr == nil && ms > 0 {
		f.RetryAfter = time.Duration(min(ms, maxRetryAfterMS)) * time.Millisecond
	}
	return f
}

// maxRetryAfterMS bounds a reported Retry-After (a day) so a hostile
// driver cannot overflow the delay.
const maxRetryAfterMS = 86_400_000

// Retryable reports whether a retry may help. A credential rejection or
// a malformed answer never; otherwise the driver's transient flag
// decides, then the provider status (408, 429 and 5xx are), and a
// failure with neither is taken as transient, as §13 lists dispatch
// failures, non-passed statuses and stop_reason error.
func (f Failure) Retryable() bool {
	switch {
	case f.Class == classCredentialRejected || f.Class == classMalformed:
		return false
	case f.ProviderStatus == 401 || f.ProviderStatus == 403:
		return false
	case f.Transient != nil:
		return *f.Transient
	case f.ProviderStatus != 0:
		return f.ProviderStatus == 408 || f.ProviderStatus == 429 || f.ProviderStatus >= 500
	}
	return true
}
