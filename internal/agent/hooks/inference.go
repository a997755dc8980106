package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/agent/inference"
	"github.com/mur-go/mur/internal/tools"
)

// DefaultMaxTokens is run-inference's output cap (wit.md §5.8: a built-in
// default, not inference.max_tokens).
const DefaultMaxTokens = 8192

// The murmur:runtime/inference instances hosted: the repository's 0.2.0
// and the seed's 0.4.0, whose message carries ids (never sent to a driver).
const (
	Inference020 = "murmur:runtime/inference@0.2.0"
	Inference040 = "murmur:runtime/inference@0.4.0"
)

// Failure codes of a run-inference call, as the seed names them.
const (
	InferenceErrorDriverFailed      = "INFERENCE_ERROR_DRIVER_FAILED"
	InferenceErrorDriverError       = "INFERENCE_ERROR_DRIVER_ERROR"
	InferenceErrorMalformedResponse = "INFERENCE_ERROR_MALFORMED_RESPONSE"
	InferenceErrorNotConfigured     = "INFERENCE_ERROR_NOT_CONFIGURED"
)

// ErrNotConfigured is every call's answer when the capsule has no driver
// a hook can call (and during on-stage).
const ErrNotConfigured = "inference driver is not configured; add inference.driver.artifact to murmur.yaml"

// ErrProcessTransport answers every call of a capsule whose harness runs
// the model (inference.transport: process).
const ErrProcessTransport = "run-inference is not available under inference.transport: process: the harness runs the model, and this capsule has no inference driver the runtime can call"

// InferenceError is a failed run-inference call; Error is the err text
// the hook receives.
type InferenceError struct {
	Code string
	msg  string
	Err  error
	// fail is the driver failure as the retry policy reads it.
	fail inference.Failure
}

func (e *InferenceError) Error() string { return e.msg }
func (e *InferenceError) Unwrap() error { return e.Err }

// inferenceHost serves run-inference for every hook of a runtime.
type inferenceHost struct {
	r       *Runtime
	mu      sync.Mutex
	records []agent.HookInference
}

func newInferenceHost(r *Runtime) *inferenceHost { return &inferenceHost{r: r} }

func (h *inferenceHost) take() []agent.HookInference {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.records
	h.records = nil
	return out
}

func (h *inferenceHost) record(rec agent.HookInference) {
	h.mu.Lock()
	h.records = append(h.records, rec)
	h.mu.Unlock()
}

// inferenceTypes is one hosted version's request, response and function.
func inferenceTypes(seed bool) *wit.Func {
	optStr := &wit.Option{Elem: wit.String}
	fields := []wit.Field{{Name: "role", Type: wit.String}, {Name: "content", Type: wit.String}}
	if seed {
		insertion := &wit.Enum{Named: wit.Named{Name: "context-insertion"}, Cases: []string{"replace-context"}}
		fields = append(fields, wit.Field{Name: "id", Type: optStr}, wit.Field{Name: "source-id", Type: optStr},
			wit.Field{Name: "inserted-by", Type: &wit.Option{Elem: insertion}})
	}
	message := &wit.Record{Named: wit.Named{Name: "message"}, Fields: fields}
	req := &wit.Record{Named: wit.Named{Name: "inference-request"}, Fields: []wit.Field{
		{Name: "messages", Type: &wit.List{Elem: message}},
		{Name: "system-prompt", Type: optStr},
		{Name: "model", Type: optStr},
	}}
	resp := &wit.Record{Named: wit.Named{Name: "inference-response"}, Fields: []wit.Field{
		{Name: "text", Type: wit.String},
		{Name: "model-used", Type: wit.String},
		{Name: "input-tokens", Type: wit.U64},
		{Name: "output-tokens", Type: wit.U64},
	}}
	return &wit.Func{Params: []wit.Param{{Name: "request", Type: req}}, Result: &wit.Result{OK: resp, Err: wit.String}}
}

// register defines run-inference under both names: a hook that imports
// neither is unaffected, one that imports either links whether or not the
// capsule has a driver.
func (h *inferenceHost) register(l *component.Linker) error {
	for _, iface := range []struct {
		name string
		seed bool
	}{{Inference020, false}, {Inference040, true}} {
		err := l.DefineFunc(iface.name, "run-inference", inferenceTypes(iface.seed), func(ctx context.Context, s *component.Store, args []any) (any, error) {
			d, ok := s.Data.(*hookStore)
			if !ok {
				return nil, errors.New("run-inference called from a store that is not a hook's")
			}
			req, err := requestFrom(args)
			if err != nil {
				return nil, err
			}
			resp, err := h.run(ctx, d.hook, d.serving, req)
			if err != nil {
				return wit.Err(err.Error()), nil
			}
			return wit.Ok([]any{resp.Text, resp.Model, resp.InputTokens, resp.OutputTokens}), nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Request is one run-inference request.
type Request struct {
	Messages     []agent.HookMessage
	SystemPrompt *string
	Model        *string
}

// Response is a completed run-inference call.
type Response struct {
	Text                      string
	Model                     string
	InputTokens, OutputTokens uint64
	// usage is the provider's, what the spend meter settles with.
	usage    inference.Usage
	reported bool
}

func requestFrom(args []any) (Request, error) {
	if len(args) != 1 {
		return Request{}, fmt.Errorf("run-inference: %d arguments, want 1", len(args))
	}
	rec, _ := args[0].([]any)
	if len(rec) != 3 {
		return Request{}, errors.New("run-inference: malformed request record")
	}
	var req Request
	list, _ := rec[0].([]any)
	for _, m := range list {
		f, _ := m.([]any)
		if len(f) < 2 {
			return Request{}, errors.New("run-inference: malformed message record")
		}
		role, _ := f[0].(string)
		content, _ := f[1].(string)
		// The seed's id, source-id and inserted-by are dropped here: wire
		// messages carry only role and content.
		req.Messages = append(req.Messages, agent.HookMessage{Role: role, Content: content})
	}
	opt := func(v any) *string {
		o, _ := v.(wit.OptionValue)
		if !o.Some {
			return nil
		}
		s, _ := o.Value.(string)
		return &s
	}
	req.SystemPrompt, req.Model = opt(rec[1]), opt(rec[2])
	return req, nil
}

// run makes one completion for hook (serving lifecycle function fn)
// through the capsule's own driver, recording one inference record per
// attempt.
func (h *inferenceHost) run(ctx context.Context, hook, fn string, req Request) (Response, error) {
	o := &h.r.opts
	driver, maxTokens := o.Driver, uint32(DefaultMaxTokens)
	if fn == fnCompaction {
		driver = o.CompactionDriver
		if o.CompactionMaxTokens > 0 {
			maxTokens = o.CompactionMaxTokens
		}
	}
	if inf := h.r.s.Capsule.Inference; inf != nil && inf.Transport == "process" {
		return Response{}, &InferenceError{Code: InferenceErrorNotConfigured, msg: ErrProcessTransport}
	}
	if driver == nil || fn == fnStage {
		return Response{}, &InferenceError{Code: InferenceErrorNotConfigured, msg: ErrNotConfigured}
	}
	model := h.r.model()
	if req.Model != nil {
		// Sent verbatim; a rejection is the caller's to retry with none.
		model = *req.Model
	}
	system := ""
	if req.SystemPrompt != nil {
		system = *req.SystemPrompt
	}
	payload, err := payloadJSON(model, maxTokens, req.Messages, system)
	if err != nil {
		return Response{}, &InferenceError{Code: InferenceErrorMalformedResponse, msg: "failed to encode driver payload: " + err.Error(), Err: err}
	}
	in := o.CountTokens(payload)
	// A hook's completion is not part of the user-facing turn: it streams
	// no chunks and never asks for input.
	ctx = tools.WithTaskIO(ctx, nil)
	for attempt := 1; ; attempt++ {
		if err := o.Meter.Admit(in + uint64(maxTokens)); err != nil {
			return Response{}, &InferenceError{Code: InferenceErrorDriverError, msg: err.Error(), Err: err}
		}
		resp, err := h.attempt(ctx, driver, payload)
		if err == nil {
			o.Meter.Charge(inference.Settle(resp.usage, resp.reported, in, resp.OutputTokens))
			resp.Model, resp.InputTokens = model, in
			h.record(agent.HookInference{Hook: hook, Model: model, InputTokens: in, OutputTokens: resp.OutputTokens, Decision: "end_turn"})
			return resp, nil
		}
		h.redact(err)
		var ie *InferenceError
		if !errors.As(err, &ie) {
			return Response{}, err
		}
		charged := inference.SettleFailed(resp.usage, resp.reported, in)
		o.Meter.Charge(charged)
		rec := agent.HookInference{Hook: hook, Model: model, InputTokens: in, Decision: "error"}
		var delay time.Duration
		var nerr error = errMalformed
		if ie.Code != InferenceErrorMalformedResponse {
			delay, nerr = o.Retry.Next(ctx, attempt-1, ie.fail)
		}
		if nerr == nil {
			f := ie.fail
			rec.Retry = &agent.HookRetry{Attempt: uint32(attempt), MaxRetries: uint32(o.Retry.MaxRetries), Reason: f.Reason,
				ProviderStatus: f.ProviderStatus, Error: f.Err, Delay: delay, RetryAfter: f.RetryAfter, ChargedTokens: charged}
		}
		h.record(rec)
		if nerr != nil {
			return Response{}, err
		}
		if werr := o.Retry.Wait(ctx, delay); werr != nil {
			return Response{}, err
		}
	}
}

// errMalformed is why a malformed answer is never sent again.
var errMalformed = errors.New("a malformed answer is not retried")

// attempt is one driver call and the reading of its answer (wit.md §5.8).
func (h *inferenceHost) attempt(ctx context.Context, driver tools.Tool, payload string) (Response, error) {
	name := h.r.opts.DriverName
	res, err := driver.Invoke(ctx, tools.ToolInput{Data: &payload})
	if err != nil {
		msg := fmt.Sprintf("inference driver '%s' failed: %v", name, err)
		return Response{}, &InferenceError{Code: InferenceErrorDriverFailed, Err: err, msg: msg,
			fail: inference.Failure{Reason: inference.ReasonDispatch, Err: err.Error()}}
	}
	get := func(k string) string {
		for _, p := range res.Metadata {
			if p.Key == k {
				return p.Value
			}
		}
		return ""
	}
	raw := res.Data
	if raw == nil {
		raw = res.Summary
	}
	if raw == nil {
		code := InferenceErrorMalformedResponse
		if res.Status != tools.StatusPassed {
			code = InferenceErrorDriverError
		}
		const msg = "inference driver returned no data"
		return Response{}, &InferenceError{Code: code, msg: msg, fail: inference.FromMetadata(inference.ReasonDriverError, msg, get)}
	}
	usage, reported := inference.ParseUsage(*raw)
	if res.Status != tools.StatusPassed {
		msg := "inference driver returned an error: " + *raw
		// The retry record prefers the summary, as the loop's does: by the
		// driver convention it is the error's text, where data wraps it.
		why := *raw
		if res.Summary != nil && *res.Summary != "" {
			why = *res.Summary
		}
		return Response{usage: usage, reported: reported}, &InferenceError{Code: InferenceErrorDriverError, msg: msg,
			fail: inference.FromMetadata(inference.ReasonDriverError, why, get)}
	}
	var answer struct {
		StopReason string `json:"stop_reason"`
		Error      string `json:"error"`
		Content    []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal([]byte(*raw), &answer); err != nil {
		return Response{}, &InferenceError{Code: InferenceErrorMalformedResponse, Err: err,
			msg: "failed to parse inference driver response: " + err.Error()}
	}
	if answer.StopReason == "error" {
		msg := answer.Error
		if msg == "" {
			msg = "driver returned error"
		}
		text := "inference driver returned an error: " + msg
		return Response{usage: usage, reported: reported}, &InferenceError{Code: InferenceErrorDriverError, msg: text,
			fail: inference.FromMetadata(inference.ReasonModelError, msg, get)}
	}
	var text strings.Builder
	for _, b := range answer.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	return Response{Text: text.String(), OutputTokens: h.r.opts.CountTokens(*raw), usage: usage, reported: reported}, nil
}

// redact keeps the session's secrets out of the err text a hook sees and
// the retry record: a driver may echo the request, key included, in its
// error.
func (h *inferenceHost) redact(err error) {
	var ie *InferenceError
	if !errors.As(err, &ie) {
		return
	}
	secrets := h.r.s.Secrets()
	ie.msg = secrets.String(ie.msg)
	ie.fail.Err = secrets.String(ie.fail.Err)
}

// payloadJSON is the driver request of session.md §1.1 and §4: compact,
// keys sorted at every level (the struct fields are in that order), no
// HTML escaping, tools empty, params {}, each message one text block.
func payloadJSON(model string, maxTokens uint32, messages []agent.HookMessage, system string) (string, error) {
	type block struct {
		Text string `json:"text"`
		Type string `json:"type"`
	}
	type message struct {
		Content []block `json:"content"`
		Role    string  `json:"role"`
	}
	p := struct {
		MaxTokens uint32    `json:"max_tokens"`
		Messages  []message `json:"messages"`
		Model     string    `json:"model"`
		Params    struct{}  `json:"params"`
		System    string    `json:"system"`
		Tools     []any     `json:"tools"`
	}{MaxTokens: maxTokens, Messages: make([]message, len(messages)), Model: model, System: system, Tools: []any{}}
	for i, m := range messages {
		p.Messages[i] = message{Content: []block{{Text: m.Content, Type: "text"}}, Role: m.Role}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// model is the manifest's inference.model, what model: none resolves to.
func (r *Runtime) model() string {
	if inf := r.s.Capsule.Inference; inf != nil {
		return inf.Model
	}
	return ""
}
