package openai

import (
	"encoding/json"

	"github.com/mur-go/mur/guests/go/driverkit"
)

// parseCompletion decodes a completion or a stream chunk, by hand when
// the Reader can (see driverkit.ParseRequest for why), else with
// encoding/json.
func parseCompletion(data []byte) (*completion, error) {
	if c, ok := readCompletion(data); ok {
		return c, nil
	}
	return unmarshalCompletion(data)
}

func unmarshalCompletion(data []byte) (*completion, error) {
	var c completion
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

func readCompletion(data []byte) (*completion, bool) {
	r := driverkit.NewReader(data)
	c := &completion{}
	keys := driverkit.NewKeys("choices", "usage", "error")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			if r.Null() {
				return
			}
			c.Choices = []choice{}
			r.Array(func() { c.Choices = append(c.Choices, readChoice(r)) })
		case 1:
			if !r.Null() {
				c.Usage = readUsage(r)
			}
		case 2:
			if !r.Null() {
				c.Error = readAPIError(r)
			}
		default:
			r.Skip()
		}
	})
	r.End()
	return c, r.OK()
}

func readChoice(r *driverkit.Reader) choice {
	var ch choice
	keys := driverkit.NewKeys("message", "delta", "finish_reason")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			if !r.Null() {
				ch.Message = readMessage(r)
			}
		case 1:
			if !r.Null() {
				ch.Delta = readMessage(r)
			}
		case 2:
			if !r.Null() {
				ch.FinishReason = r.Str()
			}
		default:
			r.Skip()
		}
	})
	return ch
}

func readMessage(r *driverkit.Reader) *message {
	m := &message{}
	keys := driverkit.NewKeys("content", "reasoning_content", "reasoning", "tool_calls")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			m.Content = r.Raw()
		case 1:
			if !r.Null() {
				m.ReasoningContent = r.Str()
			}
		case 2:
			if !r.Null() {
				m.Reasoning = r.Str()
			}
		case 3:
			if r.Null() {
				return
			}
			m.ToolCalls = []toolCall{}
			r.Array(func() { m.ToolCalls = append(m.ToolCalls, readToolCall(r)) })
		default:
			r.Skip()
		}
	})
	return m
}

func readToolCall(r *driverkit.Reader) toolCall {
	var tc toolCall
	keys := driverkit.NewKeys("index", "id", "function")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			if !r.Null() {
				i := int(r.Int())
				tc.Index = &i
			}
		case 1:
			if !r.Null() {
				tc.ID = r.Str()
			}
		case 2:
			if r.Null() {
				return // a null struct is left as it is
			}
			fkeys := driverkit.NewKeys("name", "arguments")
			r.Object(func(key string) {
				switch fkeys.Take(r, key) {
				case 0:
					if !r.Null() {
						tc.Function.Name = r.Str()
					}
				case 1:
					tc.Function.Arguments = r.Raw()
				default:
					r.Skip()
				}
			})
		default:
			r.Skip()
		}
	})
	return tc
}

func readUsage(r *driverkit.Reader) *usage {
	u := &usage{}
	keys := driverkit.NewKeys("prompt_tokens", "completion_tokens", "prompt_tokens_details", "completion_tokens_details")
	count := func(v *uint64) {
		if !r.Null() {
			*v = r.Uint64()
		}
	}
	detail := func(name string, v *uint64) bool {
		if r.Null() {
			return false
		}
		dkeys := driverkit.NewKeys(name)
		r.Object(func(key string) {
			if dkeys.Take(r, key) == 0 {
				count(v)
			} else {
				r.Skip()
			}
		})
		return true
	}
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			count(&u.PromptTokens)
		case 1:
			count(&u.CompletionTokens)
		case 2:
			var n uint64
			if detail("cached_tokens", &n) {
				u.PromptTokensDetails = &struct {
					CachedTokens uint64 `json:"cached_tokens"`
				}{n}
			}
		case 3:
			var n uint64
			if detail("reasoning_tokens", &n) {
				u.CompletionTokensDetails = &struct {
					ReasoningTokens uint64 `json:"reasoning_tokens"`
				}{n}
			}
		default:
			r.Skip()
		}
	})
	return u
}

func readAPIError(r *driverkit.Reader) *apiError {
	e := &apiError{}
	keys := driverkit.NewKeys("message", "type", "code")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			if !r.Null() {
				e.Message = r.Str()
			}
		case 1:
			if !r.Null() {
				e.Type = r.Str()
			}
		case 2:
			e.Code = r.Raw()
		default:
			r.Skip()
		}
	})
	return e
}
