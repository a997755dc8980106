package driverkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mur-go/mur/guests/go/wasihttp"
)

// Env is what the runtime hands a driver (session.md §1.5).
type Env struct {
	Endpoint string
	// APIKey is MURMUR_INFERENCE_API_KEY. Under mur-go it is a placeholder:
	// the host sets the real credential on requests to the endpoint.
	APIKey string
	// Config is MURMUR_INFERENCE_DRIVER_CONFIG ("" when unset).
	Config string
}

// EnvFrom reads Env through getenv.
func EnvFrom(getenv func(string) string) Env {
	return Env{
		Endpoint: getenv("MURMUR_INFERENCE_ENDPOINT"),
		APIKey:   getenv("MURMUR_INFERENCE_API_KEY"),
		Config:   getenv("MURMUR_INFERENCE_DRIVER_CONFIG"),
	}
}

// Config is the driver config keys both drivers read; each provider
// decodes its own extra keys from the same JSON.
type Config struct {
	// Stream asks for server-sent events (default true), so the host sees
	// text as it is generated.
	Stream *bool `json:"stream"`
	// Headers are extra request headers (e.g. OpenRouter's HTTP-Referer).
	Headers map[string]string `json:"headers"`
}

// Streaming is Stream with its default.
func (c Config) Streaming() bool { return c.Stream == nil || *c.Stream }

// ParseConfig decodes the driver config into v; "" leaves v as is.
func ParseConfig(raw string, v any) error {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return fmt.Errorf("MURMUR_INFERENCE_DRIVER_CONFIG is not a valid driver config: %w", err)
	}
	return nil
}

// ReadConfig reads a driver config with Reader: the keys of Config and
// the provider's own, extra, whose values field reads (i indexes extra).
// ok is false for a config to leave to ParseConfig.
func ReadConfig(raw string, extra []string, field func(r *Reader, i int)) (cfg Config, ok bool) {
	if strings.TrimSpace(raw) == "" {
		return cfg, true
	}
	r := NewReader([]byte(raw))
	keys := NewKeys(append([]string{"stream", "headers"}, extra...)...)
	r.Object(func(key string) {
		switch i := keys.Take(r, key); i {
		case -1:
			r.Skip()
		case 0:
			b := r.Bool()
			cfg.Stream = &b
		case 1:
			cfg.Headers = map[string]string{}
			if r.Peek() != '{' {
				r.Fail()
			}
			r.Object(func(k string) { cfg.Headers[k] = r.Str() })
		default:
			field(r, i-2)
		}
	})
	r.End()
	return cfg, r.OK()
}

// Emitter receives streamed text (murmur:text/chunks).
type Emitter interface {
	Chunk(text string)
	Thinking(text string)
}

// NoEmitter drops chunks.
type NoEmitter struct{}

func (NoEmitter) Chunk(string)    {}
func (NoEmitter) Thinking(string) {}

// Provider is one provider API.
type Provider interface {
	// Build is the HTTP request for req; stream reports whether it asks
	// for server-sent events.
	Build(env Env, req *Request) (hreq *wasihttp.Request, stream bool, err error)
	// Decode translates a whole JSON answer.
	Decode(body []byte) (*Response, error)
	// DecodeStream translates an event stream, emitting text as it comes.
	DecodeStream(body io.Reader, emit Emitter) (*Response, error)
	// ContextLength reports whether an error body says the prompt was too
	// long for the model.
	ContextLength(body []byte) bool
}

// MaxResponse bounds a provider answer the driver buffers.
const MaxResponse = 64 << 20

// Run answers one runtime request: build, send (following redirects),
// translate. Every failure is a Result by the error convention, never a
// panic: odd provider JSON gives a malformed_response error.
func Run(p Provider, env Env, d wasihttp.Doer, emit Emitter, data []byte) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = (&Failure{Msg: fmt.Sprintf("driver failed: %v", r), Class: ClassMalformed}).Result()
		}
	}()
	resp, err := call(p, env, d, emit, data)
	if err != nil {
		var f *Failure
		if !errors.As(err, &f) {
			f = &Failure{Msg: err.Error(), Class: ClassRequest}
		}
		return f.Result()
	}
	resp.Usage = resp.Usage.OrNil()
	if resp.Content == nil {
		resp.Content = []any{}
	}
	out, err := EncodeResponse(resp)
	if err != nil {
		return (&Failure{Msg: "encoding the response: " + err.Error(), Class: ClassMalformed}).Result()
	}
	return Result{Status: StatusPassed, Summary: resp.StopReason, Data: out}
}

func call(p Provider, env Env, d wasihttp.Doer, emit Emitter, data []byte) (*Response, error) {
	req, err := ParseRequest(data)
	if err != nil {
		return nil, err
	}
	hreq, stream, err := p.Build(env, req)
	if err != nil {
		return nil, err
	}
	resp, err := wasihttp.Follow(d, hreq)
	if err != nil {
		return nil, &Failure{Msg: "sending the request to " + hreq.URL + ": " + err.Error(), Class: ClassNetwork, Transient: true}
	}
	defer resp.Body.Close()
	body := io.LimitReader(resp.Body, MaxResponse+1)
	if resp.Status < 200 || resp.Status > 299 {
		b, _ := io.ReadAll(io.LimitReader(body, 64<<10))
		return nil, HTTPFailure(resp.Status, b, RetryAfter(resp.Get, time.Now()), p.ContextLength)
	}
	var out *Response
	if stream && strings.Contains(strings.ToLower(resp.Get("content-type")), "text/event-stream") {
		out, err = p.DecodeStream(body, emit)
	} else {
		var b []byte
		b, err = io.ReadAll(body)
		if err == nil && len(b) > MaxResponse {
			err = fmt.Errorf("the response is larger than %d bytes", MaxResponse)
		}
		if err == nil {
			out, err = p.Decode(b)
		}
	}
	if err != nil {
		var f *Failure
		if errors.As(err, &f) {
			return nil, f
		}
		return nil, &Failure{Msg: "malformed response from " + hreq.URL + ": " + err.Error(), Class: ClassMalformed, Status: resp.Status}
	}
	return out, nil
}

// Endpoint joins the endpoint and the API path: an endpoint already
// ending in suffix is used as it is, one with no path gets def, and any
// other gets suffix appended.
func Endpoint(endpoint, def, suffix string) (string, error) {
	e := strings.TrimRight(strings.TrimSpace(endpoint), "/")
	if e == "" {
		return "", &Failure{Msg: "MURMUR_INFERENCE_ENDPOINT is empty: set inference.endpoint", Class: ClassRequest}
	}
	rest := e
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	switch {
	case strings.HasSuffix(e, suffix):
		return e, nil
	case !strings.Contains(rest, "/"):
		return e + def, nil
	}
	return e + suffix, nil
}
