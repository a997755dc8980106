package telemetry

import (
	"fmt"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/format/manifest"
)

// RecordType is the trace.jsonl event type of Record (beyond Murmur
// 0.2.0; readers skip types they do not know).
const RecordType = "telemetry"

// Record says what became of a session's spans, once they were flushed:
// the last line of a session that exported them.
type Record struct {
	trace.Common
	Endpoint string `json:"endpoint"`
	Protocol string `json:"protocol"`
	// From is what named the endpoint: observability.otel_endpoint or
	// the variable.
	From          string `json:"from"`
	SpansEnded    uint64 `json:"spans_ended"`
	SpansExported uint64 `json:"spans_exported"`
	SpansDropped  uint64 `json:"spans_dropped"`
	// Error is the first failed export's error; null when none failed.
	Error *string `json:"error"`
}

// Record is the trace record of s.
func (x *Exporter) Record(s Stats) *Record {
	r := &Record{Endpoint: x.cfg.Endpoint, Protocol: x.cfg.Protocol, From: x.cfg.From,
		SpansEnded: s.Ended, SpansExported: s.Exported, SpansDropped: s.Dropped}
	if s.Err != nil {
		msg := s.Err.Error()
		r.Error = &msg
	}
	return r
}

// Warning is the W-RUN-002 that says spans were not all delivered: the
// collector could not be reached, refused them, did not answer in time,
// or the queue overflowed. The run's outcome is not affected.
func (x *Exporter) Warning(s Stats, file string) (manifest.Warning, bool) {
	if s.Dropped == 0 && s.Err == nil {
		return manifest.Warning{}, false
	}
	w := manifest.Warning{Code: WarnTelemetry, File: file,
		Hint: "check that an OTLP collector listens there (" + x.cfg.From + "); the run itself is not affected"}
	if x.cfg.From == FieldEndpoint {
		w.Path = FieldEndpoint
	} else {
		w.File = x.cfg.From
	}
	w.Msg = fmt.Sprintf("%d of %d spans were not delivered to the OpenTelemetry collector at %s (%s)", s.Dropped, s.Ended, x.cfg.Endpoint, x.cfg.Protocol)
	switch {
	case s.Err != nil:
		w.Msg += ": " + s.Err.Error()
	case s.Unfinished:
		w.Msg += ": the collector did not take them before the session's end"
	default:
		w.Msg += ": the queue was full"
	}
	return w, true
}
