package anthropic

import (
	"encoding/json"

	"github.com/mur-go/mur/guests/go/driverkit"
)

// parser reads the Messages API's JSON: fast by hand where the Reader can
// (see driverkit.ParseRequest for why) and encoding/json for the rest;
// std is encoding/json alone, the reference the fast one is held to.
type parser struct {
	message func([]byte) (*message, error)
	event   func([]byte) (*streamEvent, error)
	delta   func([]byte) (*delta, error)
}

func fastParser() parser {
	return parser{message: parseFast(readMessage), event: parseFast(readEvent), delta: parseFast(readDelta)}
}

func stdParser() parser {
	return parser{message: unmarshal[message], event: unmarshal[streamEvent], delta: unmarshal[delta]}
}

func unmarshal[T any](data []byte) (*T, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// parseFast reads data with read, or with encoding/json when the Reader
// leaves it.
func parseFast[T any](read func(*driverkit.Reader) *T) func([]byte) (*T, error) {
	return func(data []byte) (*T, error) {
		r := driverkit.NewReader(data)
		v := read(r)
		r.End()
		if r.OK() {
			return v, nil
		}
		return unmarshal[T](data)
	}
}

// str reads a string field; null leaves it as it is, as in encoding/json.
func str(r *driverkit.Reader, s *string) {
	if !r.Null() {
		*s = r.Str()
	}
}

func count(r *driverkit.Reader, v *uint64) {
	if !r.Null() {
		*v = r.Uint64()
	}
}

func readMessage(r *driverkit.Reader) *message {
	m := &message{}
	keys := driverkit.NewKeys("content", "stop_reason", "usage", "type", "error")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			if r.Null() {
				return
			}
			m.Content = []block{}
			r.Array(func() { m.Content = append(m.Content, *readBlock(r)) })
		case 1:
			str(r, &m.StopReason)
		case 2:
			if !r.Null() {
				m.Usage = readUsage(r)
			}
		case 3:
			str(r, &m.Type)
		case 4:
			if !r.Null() {
				m.Error = readAPIError(r)
			}
		default:
			r.Skip()
		}
	})
	return m
}

func readBlock(r *driverkit.Reader) *block {
	b := &block{}
	keys := driverkit.NewKeys("type", "text", "id", "name", "input", "thinking", "signature", "data")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			str(r, &b.Type)
		case 1:
			str(r, &b.Text)
		case 2:
			str(r, &b.ID)
		case 3:
			str(r, &b.Name)
		case 4:
			b.Input = r.Raw()
		case 5:
			str(r, &b.Thinking)
		case 6:
			str(r, &b.Signature)
		case 7:
			str(r, &b.Data)
		default:
			r.Skip()
		}
	})
	return b
}

func readUsage(r *driverkit.Reader) *usage {
	u := &usage{}
	keys := driverkit.NewKeys("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			count(r, &u.InputTokens)
		case 1:
			count(r, &u.OutputTokens)
		case 2:
			count(r, &u.CacheReadInputTokens)
		case 3:
			count(r, &u.CacheCreationInputTokens)
		default:
			r.Skip()
		}
	})
	return u
}

func readAPIError(r *driverkit.Reader) *apiError {
	e := &apiError{}
	keys := driverkit.NewKeys("type", "message")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			str(r, &e.Type)
		case 1:
			str(r, &e.Message)
		default:
			r.Skip()
		}
	})
	return e
}

func readEvent(r *driverkit.Reader) *streamEvent {
	e := &streamEvent{}
	keys := driverkit.NewKeys("type", "index", "message", "content_block", "delta", "usage", "error")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			str(r, &e.Type)
		case 1:
			if !r.Null() {
				e.Index = int(r.Int())
			}
		case 2:
			if !r.Null() {
				e.Message = readMessage(r)
			}
		case 3:
			if !r.Null() {
				e.ContentBlock = readBlock(r)
			}
		case 4:
			e.Delta = r.Raw()
		case 5:
			if !r.Null() {
				e.Usage = readUsage(r)
			}
		case 6:
			if !r.Null() {
				e.Error = readAPIError(r)
			}
		default:
			r.Skip()
		}
	})
	return e
}

func readDelta(r *driverkit.Reader) *delta {
	d := &delta{}
	keys := driverkit.NewKeys("type", "text", "partial_json", "thinking", "signature", "stop_reason")
	r.Object(func(key string) {
		switch keys.Take(r, key) {
		case 0:
			str(r, &d.Type)
		case 1:
			str(r, &d.Text)
		case 2:
			str(r, &d.PartialJSON)
		case 3:
			str(r, &d.Thinking)
		case 4:
			str(r, &d.Signature)
		case 5:
			str(r, &d.StopReason)
		default:
			r.Skip()
		}
	})
	return d
}
