package driverkit

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

const hexDigits = "0123456789abcdef"

// htmlSafe marks the ASCII bytes json.Marshal writes as they are.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendString appends s as a JSON string exactly as json.Marshal
// writes it: HTML characters, U+2028 and U+2029 escaped, invalid UTF-8
// replaced by U+FFFD. Runs of plain bytes are copied at once.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	return append(appendStringBody(dst, s, true), '"')
}

// appendStringBody is AppendString without the quotes; html false
// leaves '<', '>' and '&' as they are, as an Encoder with SetEscapeHTML
// false does.
func appendStringBody(dst []byte, s string, html bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if htmlSafe[c] || (!html && (c == '<' || c == '>' || c == '&')) {
				i++
				if i+8 <= len(s) {
					i += plainWords(unsafe.Slice(unsafe.StringData(s[i:]), len(s)-i), html)
				}
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// AppendRaw appends a valid JSON value as json.Marshal writes a
// json.RawMessage: compacted, with HTML characters, U+2028 and U+2029
// escaped; bytes are otherwise kept, invalid UTF-8 included. An empty
// value is null.
func AppendRaw(dst, raw []byte) []byte { return appendRaw(dst, raw, true) }

// appendRaw is AppendRaw; html false only compacts, as an Encoder with
// SetEscapeHTML false does.
func appendRaw(dst, raw []byte, html bool) []byte {
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	inString, escaped := false, false
	start := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case html && (c == '<' || c == '>' || c == '&'):
			dst = append(dst, raw[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			start = i + 1
		case html && c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8:
			dst = append(dst, raw[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[raw[i+2]&0xF])
			i += 2
			start = i + 1
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			dst = append(dst, raw[start:i]...)
			start = i + 1
		}
	}
	return append(dst, raw[start:]...)
}

// AppendTexts appends the texts of the text blocks of blocks, joined by
// sep, as one JSON string, without building the joined text first. Every part is valid UTF-8 (a decoded string),
// so escaping the parts one by one equals escaping their join.
func AppendTexts(dst []byte, blocks []Block, sep string) []byte {
	dst = append(dst, '"')
	first := true
	for _, b := range blocks {
		if b.Type != "text" {
			continue
		}
		if !first {
			dst = appendStringBody(dst, sep, true)
		}
		first = false
		dst = appendStringBody(dst, b.Text, true)
	}
	return append(dst, '"')
}

// Member is one member of an object being written: its key and a
// function appending its value.
type Member struct {
	Key   string
	Value func([]byte) []byte
}

// Object is an object written with its keys sorted, as json.Marshal
// writes a map, so a body built member by member is byte for byte what
// marshalling the equivalent map gave.
type Object []Member

// Set adds the member key or replaces its value.
func (o *Object) Set(key string, v func([]byte) []byte) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, Member{key, v})
}

// Append appends the object.
func (o Object) Append(dst []byte) []byte {
	sorted := slices.Clone(o)
	slices.SortFunc(sorted, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	dst = append(dst, '{')
	for i, m := range sorted {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = m.Value(dst)
	}
	return append(dst, '}')
}

// Raw is a Member value writing raw with AppendRaw.
func Raw(raw []byte) func([]byte) []byte {
	return func(dst []byte) []byte { return AppendRaw(dst, raw) }
}

// String is a Member value writing s.
func String(s string) func([]byte) []byte {
	return func(dst []byte) []byte { return AppendString(dst, s) }
}

// Literal is a Member value written as it is (true, a number, …).
func Literal(s string) func([]byte) []byte {
	return func(dst []byte) []byte { return append(dst, s...) }
}

// RequestSize is about the size of a provider body for req (its texts,
// inputs and schemas plus room for keys, or the request's own size when
// larger: its texts' escapes count too), so the body is written into one
// buffer without regrowing, which would allocate it twice over.
func RequestSize(req *Request) int {
	n := len(req.System) + 256
	for _, m := range req.Messages {
		n += 64 + len(m.ToolCallID)
		for _, b := range m.Content {
			n += 64 + len(b.Text) + len(b.ID) + len(b.Name) + len(b.Input) + len(b.Signature)
			if b.Source != nil {
				n += len(b.Source.Data) + len(b.Source.MediaType)
			}
		}
	}
	for _, t := range req.Tools {
		n += 64 + len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	for k, v := range req.Params {
		n += 8 + len(k) + len(v)
	}
	n = max(n, req.Size)
	return n + n/16
}
