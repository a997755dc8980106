package driverkit

import (
	"bytes"
	"unicode/utf8"
)

// Canonical reports whether data is one JSON value exactly as
// encoding/json writes it back after decoding it into an any (numbers as
// json.Number) and encoding that without HTML escaping: no spaces, object
// keys unique and sorted, numbers as written, strings with encoding/json's
// escapes and no others. It judges in one pass what that round trip, all
// reflection, takes milliseconds for in wasm. false also stands for "not
// judged" (an escaped key, deep nesting): the caller then makes the round
// trip itself.
func Canonical(data []byte) bool {
	c := canonReader{b: data}
	return c.value(0) && c.i == len(c.b)
}

type canonReader struct {
	b []byte
	i int
}

func (c *canonReader) value(depth int) bool {
	if c.i >= len(c.b) || depth > maxSkipDepth {
		return false
	}
	switch c.b[c.i] {
	case '{':
		return c.object(depth)
	case '[':
		return c.array(depth)
	case '"':
		_, ok := c.str()
		return ok
	case 't':
		return c.lit("true")
	case 'f':
		return c.lit("false")
	case 'n':
		return c.lit("null")
	}
	return c.number()
}

func (c *canonReader) next(b byte) bool {
	if c.i < len(c.b) && c.b[c.i] == b {
		c.i++
		return true
	}
	return false
}

func (c *canonReader) object(depth int) bool {
	c.i++
	if c.next('}') {
		return true
	}
	var prev []byte
	for first := true; ; first = false {
		start := c.i + 1
		plain, ok := c.str()
		key := c.b[start:max(start, c.i-1)]
		// encoding/json sorts keys as decoded strings, which are the raw
		// bytes only without escapes.
		if !ok || !plain || (!first && bytes.Compare(prev, key) >= 0) || !c.next(':') || !c.value(depth+1) {
			return false
		}
		prev = key
		if c.next('}') {
			return true
		}
		if !c.next(',') {
			return false
		}
	}
}

func (c *canonReader) array(depth int) bool {
	c.i++
	if c.next(']') {
		return true
	}
	for {
		if !c.value(depth + 1) {
			return false
		}
		if c.next(']') {
			return true
		}
		if !c.next(',') {
			return false
		}
	}
}

// str reads a string at c.i; plain reports that it held no escape.
func (c *canonReader) str() (plain, ok bool) {
	if !c.next('"') {
		return false, false
	}
	plain = true
	for {
		c.i += plainWords(c.b[c.i:], false)
		if c.i >= len(c.b) {
			return false, false
		}
		switch b := c.b[c.i]; {
		case b == '"':
			c.i++
			return plain, true
		case b < ' ':
			return false, false
		case b == '\\':
			if !c.escape() {
				return false, false
			}
			plain = false
		case b >= utf8.RuneSelf:
			// A decoded string is valid UTF-8, which encoding/json
			// writes as it is but for U+2028 and U+2029.
			r, size := utf8.DecodeRune(c.b[c.i:])
			if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
				return false, false
			}
			c.i += size
		default:
			c.i++
		}
	}
}

// escape reads the escape at c.i, accepting only those encoding/json
// writes: \" \\ \b \f \n \r \t, \u00xx (lower-case hex) for the other
// control characters, and \u2028 and \u2029.
func (c *canonReader) escape() bool {
	if c.i+1 >= len(c.b) {
		return false
	}
	switch c.b[c.i+1] {
	case '"', '\\', 'b', 'f', 'n', 'r', 't':
		c.i += 2
		return true
	case 'u':
	default:
		return false
	}
	if c.i+6 > len(c.b) {
		return false
	}
	u := string(c.b[c.i+2 : c.i+6])
	ok := u == "2028" || u == "2029"
	if !ok && u[0] == '0' && u[1] == '0' && lowerHex(u[2]) && lowerHex(u[3]) {
		switch v := hexVal(u[2])<<4 | hexVal(u[3]); {
		case v >= ' ', v == '\b', v == '\f', v == '\n', v == '\r', v == '\t':
		default:
			ok = true
		}
	}
	c.i += 6
	return ok
}

func lowerHex(b byte) bool { return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' }

func hexVal(b byte) byte {
	if b <= '9' {
		return b - '0'
	}
	return b - 'a' + 10
}

func (c *canonReader) lit(s string) bool {
	if !bytes.HasPrefix(c.b[c.i:], []byte(s)) {
		return false
	}
	c.i += len(s)
	return true
}

// number reads a JSON number, which json.Number keeps as written.
func (c *canonReader) number() bool {
	c.next('-')
	switch {
	case c.next('0'):
	case c.digits() == 0:
		return false
	}
	if c.next('.') && c.digits() == 0 {
		return false
	}
	if c.next('e') || c.next('E') {
		if !c.next('+') {
			c.next('-')
		}
		if c.digits() == 0 {
			return false
		}
	}
	return true
}

func (c *canonReader) digits() int {
	start := c.i
	for c.i < len(c.b) && '0' <= c.b[c.i] && c.b[c.i] <= '9' {
		c.i++
	}
	return c.i - start
}
