package openai

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mur-go/mur/guests/go/driverkit"
)

type completion struct {
	Choices []choice  `json:"choices"`
	Usage   *usage    `json:"usage"`
	Error   *apiError `json:"error"`
}

type choice struct {
	Message      *message `json:"message"`
	Delta        *message `json:"delta"`
	FinishReason string   `json:"finish_reason"`
}

type message struct {
	Content json.RawMessage `json:"content"`
	// ReasoningContent is DeepSeek's and vLLM's spelling, Reasoning
	// OpenRouter's and Ollama's.
	ReasoningContent string     `json:"reasoning_content"`
	Reasoning        string     `json:"reasoning"`
	ToolCalls        []toolCall `json:"tool_calls"`
}

type toolCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type usage struct {
	PromptTokens        uint64 `json:"prompt_tokens"`
	CompletionTokens    uint64 `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens uint64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens uint64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

type apiError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

func (u *usage) mapped() *driverkit.Usage {
	if u == nil {
		return nil
	}
	out := &driverkit.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	if u.CompletionTokensDetails != nil {
		out.ThinkingTokens = u.CompletionTokensDetails.ReasoningTokens
	}
	return out
}

// Decode translates a whole completion.
func (Provider) Decode(body []byte) (*driverkit.Response, error) {
	return decode(body, parseCompletion)
}

// DecodeStd and DecodeStreamStd are Decode and DecodeStream reading the
// provider's JSON with encoding/json alone: the reference the
// hand-written reader is held to.
func DecodeStd(body []byte) (*driverkit.Response, error) { return decode(body, unmarshalCompletion) }

// DecodeStreamStd is DecodeStream reading with encoding/json alone.
func DecodeStreamStd(body io.Reader, emit driverkit.Emitter) (*driverkit.Response, error) {
	return decodeStream(body, emit, unmarshalCompletion)
}

func decode(body []byte, parse func([]byte) (*completion, error)) (*driverkit.Response, error) {
	c, err := parse(body)
	if err != nil {
		return nil, err
	}
	if c.Error != nil {
		return nil, streamFailure(c.Error)
	}
	if len(c.Choices) == 0 || c.Choices[0].Message == nil {
		return nil, fmt.Errorf("the completion has no choices")
	}
	m := c.Choices[0].Message
	var a assembly
	a.thinking.WriteString(m.ReasoningContent + m.Reasoning)
	a.text.WriteString(contentText(m.Content))
	for i, tc := range m.ToolCalls {
		a.call(i, tc)
	}
	return a.response(c.Choices[0].FinishReason, c.Usage.mapped()), nil
}

// contentText reads content given as a string or as an array of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "text" || p.Type == "output_text" {
				b.WriteString(p.Text)
			}
		}
		return b.String()
	}
	return ""
}

// DecodeStream reassembles a streamed completion: text deltas are
// emitted as they come, tool-call deltas joined by index.
func (Provider) DecodeStream(body io.Reader, emit driverkit.Emitter) (*driverkit.Response, error) {
	return decodeStream(body, emit, parseCompletion)
}

func decodeStream(body io.Reader, emit driverkit.Emitter, parse func([]byte) (*completion, error)) (*driverkit.Response, error) {
	var a assembly
	finish := ""
	var u *usage
	done := false
	err := driverkit.Events(body, func(ev driverkit.Event) error {
		data := strings.TrimSpace(string(ev.Data))
		if done || data == "" {
			return nil
		}
		if data == "[DONE]" {
			done = true
			return nil
		}
		c, err := parse(ev.Data)
		if err != nil {
			return fmt.Errorf("stream event: %w", err)
		}
		if c.Error != nil {
			return streamFailure(c.Error)
		}
		if c.Usage != nil {
			u = c.Usage
		}
		for _, ch := range c.Choices {
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
			d := ch.Delta
			if d == nil {
				continue
			}
			if t := d.ReasoningContent + d.Reasoning; t != "" {
				a.thinking.WriteString(t)
				emit.Thinking(t)
			}
			if t := contentText(d.Content); t != "" {
				a.text.WriteString(t)
				emit.Chunk(t)
			}
			for i, tc := range d.ToolCalls {
				idx := i
				if tc.Index != nil {
					idx = *tc.Index
				}
				a.call(idx, tc)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a.response(finish, u.mapped()), nil
}

// streamFailure is an error the provider sent in a 200 answer or mid-
// stream; a rate limit or server error there is as transient as a 429.
func streamFailure(e *apiError) *driverkit.Failure {
	f := &driverkit.Failure{Msg: "provider error: " + e.Message, Class: driverkit.ClassBadRequest}
	kind := strings.ToLower(e.Type + " " + string(e.Code))
	switch {
	case strings.Contains(kind, "rate_limit"):
		f.Class, f.Transient = driverkit.ClassRateLimited, true
	case strings.Contains(kind, "server") || strings.Contains(kind, "overload"):
		f.Class, f.Transient = driverkit.ClassServer, true
	case strings.Contains(kind, "context_length"):
		f.Class = driverkit.ClassContextLength
	}
	return f
}

// assembly collects one answer's text, thinking and tool calls.
type assembly struct {
	text, thinking strings.Builder
	calls          map[int]*pendingCall
}

type pendingCall struct {
	id, name string
	args     strings.Builder
}

func (a *assembly) call(idx int, tc toolCall) {
	if a.calls == nil {
		a.calls = map[int]*pendingCall{}
	}
	p := a.calls[idx]
	if p == nil {
		p = &pendingCall{}
		a.calls[idx] = p
	}
	if tc.ID != "" {
		p.id = tc.ID
	}
	p.name += tc.Function.Name
	p.args.WriteString(arguments(tc.Function.Arguments))
}

// arguments is a tool call's arguments: a JSON string as OpenAI sends,
// or an object as some servers (Ollama) do.
func arguments(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if t := strings.TrimSpace(string(raw)); t != "" && t != "null" {
		return t
	}
	return ""
}

func (a *assembly) response(finish string, u *driverkit.Usage) *driverkit.Response {
	content := []any{}
	if a.thinking.Len() > 0 {
		content = append(content, driverkit.ThinkingBlock(a.thinking.String(), ""))
	}
	if a.text.Len() > 0 {
		content = append(content, driverkit.TextBlock(a.text.String()))
	}
	idx := make([]int, 0, len(a.calls))
	for i := range a.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		c := a.calls[i]
		id := c.id
		if id == "" {
			id = fmt.Sprintf("call_%d", n)
		}
		content = append(content, driverkit.ToolCallBlock(id, c.name, driverkit.ToolInput(c.args.String())))
	}
	stop := driverkit.StopEndTurn
	switch {
	case len(idx) > 0:
		stop = driverkit.StopToolCall
	case finish == "length":
		stop = driverkit.StopMaxTokens
	}
	return &driverkit.Response{StopReason: stop, Content: content, Usage: u}
}
