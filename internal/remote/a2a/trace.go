package a2a

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// TraceEnv is the environment variable a caller sets to put mur's
// requests into its own trace: a W3C traceparent.
const TraceEnv = "TRACEPARENT"

// TraceContext is a W3C trace context (traceparent version 00): the trace
// a request belongs to and the span that sends it. The zero value is no
// trace context.
type TraceContext struct {
	TraceID [16]byte
	SpanID  [8]byte
	Flags   byte
}

// ParseTraceparent reads a traceparent header value. It accepts what W3C
// Trace Context level 1 calls valid (lower-case hex, non-zero ids; a
// later version may add fields after the fourth) and reports false for
// anything else, which a receiver then ignores.
func ParseTraceparent(s string) (TraceContext, bool) {
	s = strings.TrimSpace(s)
	f := strings.Split(s, "-")
	if len(f) < 4 || len(f[0]) != 2 || f[0] == "ff" || (f[0] == "00" && len(f) != 4) {
		return TraceContext{}, false
	}
	var tc TraceContext
	var flags [1]byte
	if !hexInto(tc.TraceID[:], f[1]) || !hexInto(tc.SpanID[:], f[2]) || !hexInto(flags[:], f[3]) || !hexInto(make([]byte, 1), f[0]) {
		return TraceContext{}, false
	}
	if tc.TraceID == ([16]byte{}) || tc.SpanID == ([8]byte{}) {
		return TraceContext{}, false
	}
	tc.Flags = flags[0]
	return tc, true
}

// hexInto decodes lower-case hex s into exactly len(dst) bytes.
func hexInto(dst []byte, s string) bool {
	if len(s) != 2*len(dst) || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.Decode(dst, []byte(s))
	return err == nil
}

// NewTrace starts a trace: new random trace and span ids, sampled.
func NewTrace() TraceContext {
	var tc TraceContext
	_, _ = rand.Read(tc.TraceID[:])
	_, _ = rand.Read(tc.SpanID[:])
	tc.Flags = 0x01
	return tc
}

// Child is a new span in the same trace, whose parent is tc: what a
// process that received tc sends on.
func (tc TraceContext) Child() TraceContext {
	c := tc
	_, _ = rand.Read(c.SpanID[:])
	return c
}

// TraceFromEnv is the trace a process joins: a child of the caller's
// traceparent in getenv(TraceEnv) when it holds a valid one, else a new
// trace.
func TraceFromEnv(getenv func(string) string) TraceContext {
	if getenv != nil {
		if tc, ok := ParseTraceparent(getenv(TraceEnv)); ok {
			return tc.Child()
		}
	}
	return NewTrace()
}

// Valid reports whether tc is a trace context at all.
func (tc TraceContext) Valid() bool { return tc.TraceID != [16]byte{} && tc.SpanID != [8]byte{} }

// String is the traceparent header value ("" for the zero value).
func (tc TraceContext) String() string {
	if !tc.Valid() {
		return ""
	}
	return "00-" + hex.EncodeToString(tc.TraceID[:]) + "-" + hex.EncodeToString(tc.SpanID[:]) + "-" + hex.EncodeToString([]byte{tc.Flags})
}

// TraceIDString is the trace id in hex.
func (tc TraceContext) TraceIDString() string { return hex.EncodeToString(tc.TraceID[:]) }

type traceKey struct{}

// WithTrace carries tc in ctx: requests the clients of this package make
// under ctx send it as their traceparent (the span that sends them).
func WithTrace(ctx context.Context, tc TraceContext) context.Context {
	return context.WithValue(ctx, traceKey{}, tc)
}

// TraceFrom is the trace context ctx carries, if any.
func TraceFrom(ctx context.Context) (TraceContext, bool) {
	tc, ok := ctx.Value(traceKey{}).(TraceContext)
	return tc, ok && tc.Valid()
}
