package driverkit

import (
	"encoding/json"
	"slices"
	"strconv"
)

// EncodeResponse is Encode(resp), written by hand for the blocks the
// drivers make (maps of strings and raw JSON): encoding/json's first use
// of a type in a fresh instance, which every driver call is, costs more
// than the whole answer. Anything else is left to Encode.
func EncodeResponse(resp *Response) (string, error) {
	if b, ok := appendResponse(make([]byte, 0, responseSize(resp)), resp); ok {
		return string(b), nil
	}
	return Encode(resp)
}

func responseSize(resp *Response) int {
	n := 128
	for _, c := range resp.Content {
		m, _ := c.(map[string]any)
		for k, v := range m {
			n += len(k) + 8
			switch v := v.(type) {
			case string:
				n += len(v)
			case json.RawMessage:
				n += len(v)
			}
		}
	}
	return n + n/16
}

func appendResponse(dst []byte, resp *Response) ([]byte, bool) {
	dst = append(dst, `{"stop_reason":`...)
	dst = appendEncoded(dst, resp.StopReason)
	dst = append(dst, `,"content":`...)
	if resp.Content == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, c := range resp.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			m, ok := c.(map[string]any)
			if !ok || m == nil {
				return dst, false
			}
			if dst, ok = appendBlock(dst, m); !ok {
				return dst, false
			}
		}
		dst = append(dst, ']')
	}
	if u := resp.Usage; u != nil {
		dst = append(dst, `,"usage":{`...)
		n := len(dst)
		for _, f := range []struct {
			key string
			v   uint64
		}{{"input_tokens", u.InputTokens}, {"output_tokens", u.OutputTokens}, {"cached_tokens", u.CachedTokens},
			{"cache_write_tokens", u.CacheWriteTokens}, {"thinking_tokens", u.ThinkingTokens}} {
			if f.v == 0 {
				continue
			}
			if len(dst) > n {
				dst = append(dst, ',')
			}
			dst = append(dst, '"')
			dst = append(dst, f.key...)
			dst = append(dst, `":`...)
			dst = strconv.AppendUint(dst, f.v, 10)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}'), true
}

// appendBlock writes a block map with its keys sorted, as Encode does.
func appendBlock(dst []byte, m map[string]any) ([]byte, bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendEncoded(dst, k)
		dst = append(dst, ':')
		switch v := m[k].(type) {
		case string:
			dst = appendEncoded(dst, v)
		case json.RawMessage:
			if !json.Valid(v) {
				return dst, false
			}
			dst = appendRaw(dst, v, false)
		default:
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendEncoded is s as Encode writes it (no HTML escaping).
func appendEncoded(dst []byte, s string) []byte {
	dst = append(dst, '"')
	return append(appendStringBody(dst, s, false), '"')
}
