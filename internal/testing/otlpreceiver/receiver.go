// Package otlpreceiver is a loopback OpenTelemetry collector for tests:
// it takes OTLP trace exports over HTTP (protobuf, POST /v1/traces, or
// any path) or gRPC (the collector's TraceService), decodes them with
// the OTLP protobuf types and keeps every span with what the request
// carried. A receiver can also hang: take the request and never answer
// until the test ends.
package otlpreceiver

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// Span is one received span, flattened for tests.
type Span struct {
	TraceID, SpanID, ParentSpanID string // hex; ParentSpanID "" for a root
	Name                          string
	Kind                          tracepb.Span_SpanKind
	// Attrs are the span's attributes: string, int64, bool, float64 or
	// []any values.
	Attrs map[string]any
	// Resource are the resource's attributes (service.name, …).
	Resource      map[string]any
	StatusCode    tracepb.Status_StatusCode
	StatusMessage string
	Start, End    uint64 // unix nanoseconds
}

// Receiver collects the spans exported to it.
type Receiver struct {
	// URL is the receiver's base URL (http://127.0.0.1:PORT): an
	// OTEL_EXPORTER_OTLP_ENDPOINT or observability.otel_endpoint.
	URL string

	mu       sync.Mutex
	spans    []Span
	headers  []http.Header
	paths    []string
	requests int
}

// Option changes how a receiver answers.
type Option func(*settings)

type settings struct{ hang bool }

// Hang makes the receiver take each export and not answer it until the
// test ends: a collector that hangs.
func Hang() Option { return func(s *settings) { s.hang = true } }

// StartHTTP starts an OTLP/HTTP receiver on loopback, stopped when t
// ends.
func StartHTTP(t testing.TB, opts ...Option) *Receiver {
	t.Helper()
	s := apply(opts)
	r := &Receiver{}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := readBody(req)
		if err != nil || req.Method != http.MethodPost {
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		var msg coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &msg); err != nil {
			http.Error(w, "not an OTLP protobuf export: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.add(&msg, req.Header.Clone(), req.URL.Path)
		if s.hang {
			select {
			case <-release:
			case <-req.Context().Done():
			}
			return
		}
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	// The hanging handler is let go before the server closes, which
	// waits for it.
	t.Cleanup(func() { close(release); srv.Close() })
	r.URL = srv.URL
	return r
}

// StartGRPC starts an OTLP/gRPC receiver on loopback, stopped when t
// ends.
func StartGRPC(t testing.TB, opts ...Option) *Receiver {
	t.Helper()
	s := apply(opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Receiver{URL: "http://" + ln.Addr().String()}
	release := make(chan struct{})
	gs := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(gs, &traceService{r: r, hang: s.hang, release: release})
	go func() { _ = gs.Serve(ln) }()
	t.Cleanup(func() { close(release); gs.Stop() })
	return r
}

type traceService struct {
	coltracepb.UnimplementedTraceServiceServer
	r       *Receiver
	hang    bool
	release chan struct{}
}

func (s *traceService) Export(ctx context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	h := http.Header{}
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		for k, vs := range md {
			for _, v := range vs {
				h.Add(k, v)
			}
		}
	}
	s.r.add(req, h, "/opentelemetry.proto.collector.trace.v1.TraceService/Export")
	if s.hang {
		select {
		case <-s.release:
		case <-ctx.Done():
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

func apply(opts []Option) settings {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	return s
}

func readBody(req *http.Request) ([]byte, error) {
	var rd io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(req.Body)
		if err != nil {
			return nil, err
		}
		defer gz.Close()
		rd = gz
	}
	var b bytes.Buffer
	_, err := io.Copy(&b, io.LimitReader(rd, 64<<20))
	return b.Bytes(), err
}

func (r *Receiver) add(msg *coltracepb.ExportTraceServiceRequest, h http.Header, path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	r.headers = append(r.headers, h)
	r.paths = append(r.paths, path)
	for _, rs := range msg.GetResourceSpans() {
		res := attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, sp := range ss.GetSpans() {
				r.spans = append(r.spans, Span{
					TraceID: hex.EncodeToString(sp.GetTraceId()), SpanID: hex.EncodeToString(sp.GetSpanId()),
					ParentSpanID: hex.EncodeToString(sp.GetParentSpanId()), Name: sp.GetName(), Kind: sp.GetKind(),
					Attrs: attrs(sp.GetAttributes()), Resource: res,
					StatusCode: sp.GetStatus().GetCode(), StatusMessage: sp.GetStatus().GetMessage(),
					Start: sp.GetStartTimeUnixNano(), End: sp.GetEndTimeUnixNano(),
				})
			}
		}
	}
}

// Spans are the spans received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Headers are the headers (gRPC: the metadata) of each export so far.
func (r *Receiver) Headers() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.headers...)
}

// Paths are the paths each export was sent to.
func (r *Receiver) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.paths...)
}

// Requests is the number of exports received.
func (r *Receiver) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

func attrs(kvs []*commonpb.KeyValue) map[string]any {
	out := map[string]any{}
	for _, kv := range kvs {
		out[kv.GetKey()] = value(kv.GetValue())
	}
	return out
}

func value(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_ArrayValue:
		var out []any
		for _, e := range x.ArrayValue.GetValues() {
			out = append(out, value(e))
		}
		return out
	}
	return nil
}

// Named are the spans whose name is name.
func Named(spans []Span, name string) []Span {
	var out []Span
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}
