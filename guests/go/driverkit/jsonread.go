package driverkit

import (
	"unicode/utf8"
	"unsafe"
)

// Reader is a strict JSON reader for the drivers' fast paths. It accepts
// a subset of what encoding/json accepts and reports anything else as
// !OK, so the caller can hand the input to encoding/json instead: a fast
// path never has to reproduce encoding/json's error messages or its
// leniencies (case-folded keys, duplicate keys, nulls). Its methods read
// nothing once it failed.
type Reader struct {
	b  []byte
	i  int
	ok bool
	// spare is the unused tail of the buffer unquoted strings are built
	// in (strSlow).
	spare []byte
}

// NewReader reads b. The strings it returns may share b's memory, so b
// must not change while they are in use: a plain string is b's own bytes
// (a 64 KiB message is not copied again), the others are built once.
func NewReader(b []byte) *Reader { return &Reader{b: b, ok: true} }

// bytesString is b as a string, sharing its memory: b is either the
// Reader's input or a buffer only the string will see.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// OK reports that everything read so far was within the subset.
func (r *Reader) OK() bool { return r.ok }

// maxSkipDepth bounds the nesting the reader skips; deeper input goes to
// encoding/json, which has its own limit.
const maxSkipDepth = 512

// Fail marks the input as one to leave to encoding/json.
func (r *Reader) Fail() { r.ok = false }

func (r *Reader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// Peek is the next non-space byte, 0 at the end.
func (r *Reader) Peek() byte {
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// expect consumes c after spaces.
func (r *Reader) expect(c byte) {
	if r.Peek() != c {
		r.Fail()
		return
	}
	r.i++
}

// Object calls field for each key of an object; field must consume the
// value. It stops at the first failure.
func (r *Reader) Object(field func(key string)) {
	r.expect('{')
	if !r.ok {
		return
	}
	if r.Peek() == '}' {
		r.i++
		return
	}
	for r.ok {
		key := r.Str()
		r.expect(':')
		if !r.ok {
			return
		}
		field(key)
		if !r.ok {
			return
		}
		switch r.Peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return
		default:
			r.Fail()
		}
	}
}

// Array calls elem for each element; elem must consume it.
func (r *Reader) Array(elem func()) {
	r.expect('[')
	if !r.ok {
		return
	}
	if r.Peek() == ']' {
		r.i++
		return
	}
	for r.ok {
		elem()
		if !r.ok {
			return
		}
		switch r.Peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return
		default:
			r.Fail()
		}
	}
}

// Str reads a string value. A string with no escapes and valid UTF-8 is
// the input's bytes as they are; anything else is unquoted the way
// encoding/json does (invalid UTF-8 and lone surrogates become U+FFFD).
func (r *Reader) Str() string {
	if r.Peek() != '"' {
		r.Fail()
		return ""
	}
	r.i++
	start := r.i
	rest := r.b[start:]
	n := plainWords(rest, false)
	for n < len(rest) && plain[rest[n]] {
		n++
	}
	r.i += n
	switch {
	case n == len(rest):
		r.Fail()
		return ""
	case rest[n] == '"':
		r.i++
		return bytesString(rest[:n])
	case rest[n] < ' ':
		r.Fail()
		return ""
	}
	return r.strSlow(start)
}

// plain marks the bytes a string holds as they are: ASCII but for the
// quote, the backslash and control characters.
var plain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// strSlow continues str from r.i, where an escape or a non-ASCII byte
// was found, unquoting into the reader's spare buffer. That buffer is
// sized on first use to the rest of the input, which unquoting only
// shortens (but for invalid UTF-8, where append takes over), so every
// string after it fits too: one allocation for all of them, where
// growing each string by doubling allocated twice its length, and what a
// call allocates must fit in the free heap its snapshot leaves
// (Headroom).
func (r *Reader) strSlow(start int) string {
	if cap(r.spare) < r.i-start {
		r.spare = make([]byte, 0, len(r.b)-start)
	}
	out := append(r.spare[:0], r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			r.spare = out[len(out):]
			return bytesString(out)
		case c < ' ':
			r.Fail()
			return ""
		case c < utf8.RuneSelf && c != '\\':
			// A run of plain ASCII is copied at once.
			j := r.i + 1
			j += plainWords(r.b[j:], false)
			for j < len(r.b) && plain[r.b[j]] {
				j++
			}
			out = append(out, r.b[r.i:j]...)
			r.i = j
		case c >= utf8.RuneSelf:
			rr, size := utf8.DecodeRune(r.b[r.i:])
			if rr == utf8.RuneError && size == 1 {
				out = append(out, "\uFFFD"...)
			} else {
				out = append(out, r.b[r.i:r.i+size]...)
			}
			r.i += size
		default:
			out = r.escape(out)
			if !r.ok {
				return ""
			}
		}
	}
	r.Fail()
	return ""
}

// escape appends the escape sequence at r.i (a backslash) unquoted.
func (r *Reader) escape(out []byte) []byte {
	if r.i+1 >= len(r.b) {
		r.Fail()
		return out
	}
	c := r.b[r.i+1]
	r.i += 2
	switch c {
	case '"', '\\', '/':
		return append(out, c)
	case 'b':
		return append(out, '\b')
	case 'f':
		return append(out, '\f')
	case 'n':
		return append(out, '\n')
	case 'r':
		return append(out, '\r')
	case 't':
		return append(out, '\t')
	case 'u':
		rr := r.hex4()
		if rr < 0 {
			r.Fail()
			return out
		}
		if rr >= 0xD800 && rr < 0xE000 {
			// A surrogate: a valid pair is one rune, anything else U+FFFD
			// (and the next escape, if any, is read on its own).
			if rr < 0xDC00 && r.i+1 < len(r.b) && r.b[r.i] == '\\' && r.b[r.i+1] == 'u' {
				save := r.i
				r.i += 2
				lo := r.hex4()
				if lo >= 0xDC00 && lo < 0xE000 {
					return utf8.AppendRune(out, (rr-0xD800)<<10|(lo-0xDC00)+0x10000)
				}
				r.i = save
			}
			rr = utf8.RuneError
		}
		return utf8.AppendRune(out, rr)
	}
	r.Fail()
	return out
}

// hex4 reads four hex digits at r.i; -1 when they are not.
func (r *Reader) hex4() rune {
	if r.i+4 > len(r.b) {
		return -1
	}
	var v rune
	for _, c := range r.b[r.i : r.i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		v = v<<4 | rune(c)
	}
	r.i += 4
	return v
}

// Raw skips one value, checking its syntax, and returns its bytes.
func (r *Reader) Raw() []byte {
	r.ws()
	start := r.i
	r.skip(0)
	if !r.ok {
		return nil
	}
	return r.b[start:r.i]
}

// Skip skips one value, checking its syntax.
func (r *Reader) Skip() { r.skip(0) }

func (r *Reader) skip(depth int) {
	if depth > maxSkipDepth {
		r.Fail()
		return
	}
	switch r.Peek() {
	case '{':
		r.Object(func(string) { r.skip(depth + 1) })
	case '[':
		r.Array(func() { r.skip(depth + 1) })
	case '"':
		r.skipString()
	case 't':
		r.literal("true")
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	default:
		r.number()
	}
}

// skipString checks a string without unquoting it: escapes must be
// valid, control characters absent; any other byte is accepted, as
// encoding/json's scanner does.
func (r *Reader) skipString() {
	r.i++
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			return
		case c < ' ':
			r.Fail()
			return
		case c == '\\':
			if r.i+1 >= len(r.b) {
				r.Fail()
				return
			}
			switch r.b[r.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				r.i += 2
			case 'u':
				r.i += 2
				if r.hex4() < 0 {
					r.Fail()
					return
				}
			default:
				r.Fail()
				return
			}
		default:
			r.i++
		}
	}
	r.Fail()
}

func (r *Reader) literal(word string) {
	if len(r.b)-r.i < len(word) || string(r.b[r.i:r.i+len(word)]) != word {
		r.Fail()
		return
	}
	r.i += len(word)
}

// number checks JSON's number grammar.
func (r *Reader) number() {
	digits := func() int {
		n := 0
		for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
			r.i++
			n++
		}
		return n
	}
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(r.b) && r.b[r.i] == '0':
		r.i++
	case digits() == 0:
		r.Fail()
		return
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if digits() == 0 {
			r.Fail()
			return
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if digits() == 0 {
			r.Fail()
		}
	}
}

// Uint32 reads a non-negative integer that fits in 32 bits.
func (r *Reader) Uint32() uint32 { return uint32(r.uint(1<<32 - 1)) }

// Uint64 reads a non-negative integer that fits in 64 bits.
func (r *Reader) Uint64() uint64 { return r.uint(1<<64 - 1) }

func (r *Reader) uint(limit uint64) uint64 {
	r.ws()
	start := r.i
	r.number()
	if !r.ok {
		return 0
	}
	var v uint64
	for _, c := range r.b[start:r.i] {
		d := uint64(c - '0')
		if c < '0' || c > '9' || v > (limit-d)/10 {
			r.Fail()
			return 0
		}
		v = v*10 + d
	}
	return v
}

// Int reads an integer that fits in an int64.
func (r *Reader) Int() int64 {
	if r.Peek() == '-' {
		r.i++
		if r.i == len(r.b) || r.b[r.i] < '0' || r.b[r.i] > '9' {
			r.Fail() // a digit must follow the sign at once
			return 0
		}
		return -int64(r.uint(1 << 63))
	}
	return int64(r.uint(1<<63 - 1))
}

// Null consumes a null and reports whether there was one: for
// encoding/json, null leaves a string as it is and sets a pointer, a
// slice or a map to nil.
func (r *Reader) Null() bool {
	if r.Peek() != 'n' {
		return false
	}
	r.literal("null")
	return r.ok
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	switch r.Peek() {
	case 't':
		r.literal("true")
		return true
	case 'f':
		r.literal("false")
		return false
	}
	r.Fail()
	return false
}

// End checks that nothing but spaces follows.
func (r *Reader) End() {
	if r.Peek() != 0 || r.i != len(r.b) {
		r.Fail()
	}
}
