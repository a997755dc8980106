package driverkit

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ParseRequest decodes the runtime's request. The runtime's own JSON
// (compact, known keys, each once, no nulls) is read by a hand-written
// reader that copies each message text once and keeps raw values as
// slices of data: encoding/json's reflection and per-byte state machine
// cost tens of milliseconds on a 64 KiB conversation in wasm, where the
// driver runs. Anything else, valid or not, is decoded by encoding/json
// (ParseRequestStd), so the answer is the same either way; data must not
// be modified while the request is in use.
func ParseRequest(data []byte) (*Request, error) {
	if r, ok := ParseRequestFast(data); ok {
		return r, nil
	}
	return ParseRequestStd(data)
}

// ParseRequestStd decodes the runtime's request with encoding/json.
func ParseRequestStd(data []byte) (*Request, error) {
	var r Request
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("the runtime's request is not valid driver JSON: %w", err)
	}
	r.Size = len(data)
	return &r, nil
}

// Keys tracks which keys of an object were seen: a repeated key, or one
// encoding/json would match case-insensitively, fails the reader.
type Keys struct {
	names []string
	seen  uint32
}

// NewKeys tracks the struct field names names (at most 32).
func NewKeys(names ...string) *Keys { return &Keys{names: names} }

// Take reports which known field key is (-1: none, to be skipped), or
// fails r when encoding/json could read key differently.
func (f *Keys) Take(r *Reader, key string) int {
	for i, n := range f.names {
		if key == n {
			if f.seen&(1<<i) != 0 {
				r.Fail()
			}
			f.seen |= 1 << i
			return i
		}
	}
	for i := 0; i < len(key); i++ {
		if key[i] >= 0x80 {
			r.Fail() // encoding/json folds some non-ASCII letters to ASCII
			return -1
		}
	}
	for _, n := range f.names {
		if strings.EqualFold(key, n) {
			r.Fail()
		}
	}
	return -1
}

var (
	requestFields = []string{"model", "max_tokens", "messages", "tools", "params", "system", "continuation_id"}
	messageFields = []string{"role", "content", "tool_call_id", "is_error"}
	blockFields   = []string{"type", "text", "id", "name", "input", "signature", "source"}
	sourceFields  = []string{"type", "media_type", "data"}
	toolFields    = []string{"name", "description", "parameters"}
)

// ParseRequestFast is the hand-written reader alone: ok is false when
// data is anything but JSON it reads exactly as encoding/json does.
func ParseRequestFast(data []byte) (req *Request, ok bool) {
	r := NewReader(data)
	req = &Request{}
	f := NewKeys(requestFields...)
	r.Object(func(key string) {
		switch f.Take(r, key) {
		case 0:
			req.Model = r.Str()
		case 1:
			req.MaxTokens = r.Uint32()
		case 2:
			req.Messages = []Message{}
			r.Array(func() { req.Messages = append(req.Messages, r.message()) })
		case 3:
			req.Tools = []Tool{}
			r.Array(func() { req.Tools = append(req.Tools, r.tool()) })
		case 4:
			req.Params = map[string]json.RawMessage{}
			if r.Peek() != '{' {
				r.Fail()
			}
			r.Object(func(k string) { req.Params[k] = r.Raw() })
		case 5:
			req.System = r.Str()
		case 6:
			req.ContinuationID = r.Str()
		default:
			r.Skip()
		}
	})
	r.End()
	req.Size = len(data)
	return req, r.ok
}

func (r *Reader) message() Message {
	var m Message
	f := NewKeys(messageFields...)
	r.Object(func(key string) {
		switch f.Take(r, key) {
		case 0:
			m.Role = r.Str()
		case 1:
			m.Content = []Block{}
			r.Array(func() { m.Content = append(m.Content, r.block()) })
		case 2:
			m.ToolCallID = r.Str()
		case 3:
			m.IsError = r.Bool()
		default:
			r.Skip()
		}
	})
	return m
}

// block reads a content block; Raw is the block's bytes as received.
func (r *Reader) block() Block {
	var b Block
	r.ws()
	start := r.i
	f := NewKeys(blockFields...)
	r.Object(func(key string) {
		switch f.Take(r, key) {
		case 0:
			b.Type = r.Str()
		case 1:
			b.Text = r.Str()
		case 2:
			b.ID = r.Str()
		case 3:
			b.Name = r.Str()
		case 4:
			b.Input = r.Raw()
		case 5:
			b.Signature = r.Str()
		case 6:
			b.Source = r.source()
		default:
			r.Skip()
		}
	})
	if r.ok {
		b.Raw = r.b[start:r.i]
	}
	return b
}

func (r *Reader) source() *ImageSource {
	s := &ImageSource{}
	f := NewKeys(sourceFields...)
	r.Object(func(key string) {
		switch f.Take(r, key) {
		case 0:
			s.Type = r.Str()
		case 1:
			s.MediaType = r.Str()
		case 2:
			s.Data = r.Str()
		default:
			r.Skip()
		}
	})
	return s
}

func (r *Reader) tool() Tool {
	var t Tool
	f := NewKeys(toolFields...)
	r.Object(func(key string) {
		switch f.Take(r, key) {
		case 0:
			t.Name = r.Str()
		case 1:
			t.Description = r.Str()
		case 2:
			t.Parameters = r.Raw()
		default:
			r.Skip()
		}
	})
	return t
}
