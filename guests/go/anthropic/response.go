package anthropic

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mur-go/mur/guests/go/driverkit"
)

type message struct {
	Content    []block   `json:"content"`
	StopReason string    `json:"stop_reason"`
	Usage      *usage    `json:"usage"`
	Type       string    `json:"type"`
	Error      *apiError `json:"error"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
}

type usage struct {
	InputTokens              uint64 `json:"input_tokens"`
	OutputTokens             uint64 `json:"output_tokens"`
	CacheReadInputTokens     uint64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens uint64 `json:"cache_creation_input_tokens"`
}

type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

func (u *usage) mapped() *driverkit.Usage {
	if u == nil {
		return nil
	}
	return &driverkit.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CachedTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens}
}

// merge adds the counts of a later usage report (message_delta carries
// the output count, and newer APIs repeat the input counts there).
func (u *usage) merge(v *usage) {
	if v == nil {
		return
	}
	u.InputTokens = max(u.InputTokens, v.InputTokens)
	u.OutputTokens = max(u.OutputTokens, v.OutputTokens)
	u.CacheReadInputTokens = max(u.CacheReadInputTokens, v.CacheReadInputTokens)
	u.CacheCreationInputTokens = max(u.CacheCreationInputTokens, v.CacheCreationInputTokens)
}

// Decode translates a whole message.
func (Provider) Decode(body []byte) (*driverkit.Response, error) { return decode(body, fastParser()) }

// DecodeStd and DecodeStreamStd are Decode and DecodeStream reading the
// provider's JSON with encoding/json alone: the reference the
// hand-written reader is held to.
func DecodeStd(body []byte) (*driverkit.Response, error) { return decode(body, stdParser()) }

// DecodeStreamStd is DecodeStream reading with encoding/json alone.
func DecodeStreamStd(body io.Reader, emit driverkit.Emitter) (*driverkit.Response, error) {
	return decodeStream(body, emit, stdParser())
}

func decode(body []byte, p parser) (*driverkit.Response, error) {
	m, err := p.message(body)
	if err != nil {
		return nil, err
	}
	if m.Type == "error" && m.Error != nil {
		return nil, apiFailure(m.Error)
	}
	if m.Content == nil && m.StopReason == "" {
		return nil, fmt.Errorf("the answer is not a message")
	}
	return response(m.Content, m.StopReason, m.Usage.mapped()), nil
}

func response(blocks []block, stopReason string, u *driverkit.Usage) *driverkit.Response {
	content := []any{}
	calls := 0
	for _, b := range blocks {
		switch b.Type {
		case "text":
			content = append(content, driverkit.TextBlock(b.Text))
		case "tool_use":
			input := b.Input
			if len(input) == 0 || string(input) == "null" {
				input = json.RawMessage(`{}`)
			}
			content = append(content, driverkit.ToolCallBlock(b.ID, b.Name, driverkit.ToolInput(string(input))))
			calls++
		case "thinking":
			content = append(content, driverkit.ThinkingBlock(b.Thinking, b.Signature))
		case "redacted_thinking":
			content = append(content, map[string]any{"type": "redacted_thinking", "data": b.Data})
		}
	}
	stop := driverkit.StopEndTurn
	switch {
	case calls > 0 || stopReason == "tool_use":
		stop = driverkit.StopToolCall
	case stopReason == "max_tokens":
		stop = driverkit.StopMaxTokens
	}
	if stop == driverkit.StopToolCall && calls == 0 {
		stop = driverkit.StopEndTurn
	}
	return &driverkit.Response{StopReason: stop, Content: content, Usage: u}
}

func apiFailure(e *apiError) *driverkit.Failure {
	f := &driverkit.Failure{Msg: "provider error: " + e.Type + ": " + e.Message, Class: driverkit.ClassBadRequest}
	switch e.Type {
	case "rate_limit_error":
		f.Class, f.Transient = driverkit.ClassRateLimited, true
	case "overloaded_error", "api_error", "timeout_error":
		f.Class, f.Transient = driverkit.ClassServer, true
	case "authentication_error", "permission_error":
		f.Class = driverkit.ClassCredentialRejected
	}
	if f.Class == driverkit.ClassBadRequest && (Provider{}).ContextLength([]byte(e.Message)) {
		f.Class = driverkit.ClassContextLength
	}
	return f
}

type streamEvent struct {
	Type         string          `json:"type"`
	Index        int             `json:"index"`
	Message      *message        `json:"message"`
	ContentBlock *block          `json:"content_block"`
	Delta        json.RawMessage `json:"delta"`
	Usage        *usage          `json:"usage"`
	Error        *apiError       `json:"error"`
}

type delta struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	PartialJSON string `json:"partial_json"`
	Thinking    string `json:"thinking"`
	Signature   string `json:"signature"`
	StopReason  string `json:"stop_reason"`
}

// pending is a block being streamed; input_json_delta pieces join into
// the tool input.
type pending struct {
	b    block
	text strings.Builder
	json strings.Builder
}

// DecodeStream reassembles a streamed message from its events.
func (Provider) DecodeStream(body io.Reader, emit driverkit.Emitter) (*driverkit.Response, error) {
	return decodeStream(body, emit, fastParser())
}

func decodeStream(body io.Reader, emit driverkit.Emitter, ps parser) (*driverkit.Response, error) {
	blocks := map[int]*pending{}
	var u usage
	stop := ""
	err := driverkit.Events(body, func(ev driverkit.Event) error {
		if len(ev.Data) == 0 {
			return nil
		}
		e, err := ps.event(ev.Data)
		if err != nil {
			return fmt.Errorf("stream event %q: %w", ev.Name, err)
		}
		switch e.Type {
		case "error":
			if e.Error == nil {
				e.Error = &apiError{Type: "error", Message: string(ev.Data)}
			}
			return apiFailure(e.Error)
		case "message_start":
			if e.Message != nil {
				u.merge(e.Message.Usage)
			}
		case "content_block_start":
			if e.ContentBlock != nil {
				p := &pending{b: *e.ContentBlock}
				p.text.WriteString(e.ContentBlock.Text + e.ContentBlock.Thinking)
				blocks[e.Index] = p
			}
		case "content_block_delta":
			p := blocks[e.Index]
			if p == nil {
				p = &pending{}
				blocks[e.Index] = p
			}
			d, err := ps.delta(e.Delta)
			if err != nil {
				return fmt.Errorf("content_block_delta: %w", err)
			}
			switch d.Type {
			case "text_delta":
				p.text.WriteString(d.Text)
				emit.Chunk(d.Text)
			case "thinking_delta":
				p.text.WriteString(d.Thinking)
				emit.Thinking(d.Thinking)
			case "signature_delta":
				p.b.Signature += d.Signature
			case "input_json_delta":
				p.json.WriteString(d.PartialJSON)
			}
		case "message_delta":
			d := &delta{}
			if len(e.Delta) > 0 {
				if d, err = ps.delta(e.Delta); err != nil {
					return fmt.Errorf("message_delta: %w", err)
				}
			}
			if d.StopReason != "" {
				stop = d.StopReason
			}
			u.merge(e.Usage)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	idx := make([]int, 0, len(blocks))
	for i := range blocks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := make([]block, 0, len(idx))
	for _, i := range idx {
		p := blocks[i]
		b := p.b
		switch b.Type {
		case "text":
			b.Text = p.text.String()
		case "thinking":
			b.Thinking = p.text.String()
		case "tool_use":
			if s := p.json.String(); strings.TrimSpace(s) != "" {
				b.Input = json.RawMessage(driverkit.ToolInput(s))
			}
		}
		out = append(out, b)
	}
	return response(out, stop, u.mapped()), nil
}
