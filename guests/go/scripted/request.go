//go:build wasip1

package main

import (
	"encoding/json"

	"github.com/mur-go/mur/guests/go/driverkit"
)

// The request is read by driverkit's hand-written reader, which reads
// exactly what encoding/json would or gives up (a null, a key in another
// case, anything odd); encoding/json then reads it as before. In wasm,
// encoding/json's reflection cost more than the rest of a turn together.

// parseRequest reads a request whose form check passed.
func parseRequest(raw []byte) (*request, error) {
	if req, ok := readRequest(raw); ok {
		return req, nil
	}
	var req request
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, err
	}
	return &req, nil
}

func readRequest(raw []byte) (*request, bool) {
	r := driverkit.NewReader(raw)
	req := &request{}
	keys := driverkit.NewKeys("continuation_id", "system", "messages", "tools")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case -1:
			r.Skip()
		case 0:
			req.ContinuationID = r.Str()
		case 1:
			s := r.Str()
			req.System = &s
		case 2:
			req.Messages = []message{}
			r.Array(func() { req.Messages = append(req.Messages, readMessage(r)) })
		case 3:
			// Only whether tools is an array matters.
			if r.Peek() != '[' {
				r.Fail()
			}
			r.Skip()
			req.Tools = []any{}
		}
	})
	r.End()
	return req, r.OK()
}

func readMessage(r *driverkit.Reader) message {
	var m message
	keys := driverkit.NewKeys("role", "content", "tool_call_id", "is_error")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case -1:
			r.Skip()
		case 0:
			m.Role = r.Str()
		case 1:
			m.Content = r.Raw()
		case 2:
			m.ToolCallID = r.Str()
		case 3:
			m.IsError = r.Bool()
		}
	})
	return m
}

// textBlocks is content's blocks as encoding/json reads them into
// []block, errors ignored (what the checks compare).
func textBlocks(content []byte) []block {
	r := driverkit.NewReader(content)
	blocks := []block{}
	r.Array(func() {
		var b block
		keys := driverkit.NewKeys("type", "text")
		r.Object(func(key string) {
			switch keys.Take(r, key) {
			case -1:
				r.Skip()
			case 0:
				b.Type = r.Str()
			case 1:
				b.Text = r.Str()
			}
		})
		blocks = append(blocks, b)
	})
	r.End()
	if r.OK() {
		return blocks
	}
	blocks = nil
	_ = json.Unmarshal(content, &blocks)
	return blocks
}
