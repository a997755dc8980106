package canon

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
	"unsafe"
)

// utf16Tag marks a latin1+utf16 string's code-unit count as UTF-16.
const utf16Tag = 1 << 31

// loadString lifts the string whose code units start at ptr
// (load_string_from_range): it checks the byte length limit, alignment and
// bounds, then decodes, trapping on invalid encodings.
func (c *call) loadString(ptr, tagged uint32) (string, error) {
	align, n := uint32(2), 2*uint64(tagged)
	utf16, latin1 := true, false
	switch c.opts.Encoding {
	case UTF8:
		align, n, utf16 = 1, uint64(tagged), false
	case UTF16:
	case Latin1UTF16:
		if tagged&utf16Tag != 0 {
			n = 2 * uint64(tagged^utf16Tag)
		} else {
			n, utf16, latin1 = uint64(tagged), false, true
		}
	default:
		return "", fmt.Errorf("canon: unknown string encoding %d", c.opts.Encoding)
	}
	if n > maxStringByteLength {
		return "", trap("string of %d bytes exceeds the limit of 2^28-1", n)
	}
	if err := c.check(ptr, n, align, "string"); err != nil {
		return "", err
	}
	b := c.mem[ptr : uint64(ptr)+n]
	switch {
	case utf16:
		return c.decodeUTF16(b)
	case latin1:
		return c.decodeLatin1(b)
	}
	if !utf8.Valid(b) {
		return "", trap("invalid UTF-8 in string at %#x", ptr)
	}
	if len(b) == 0 {
		return "", nil
	}
	buf, err := c.stringBuf(len(b))
	if err != nil {
		return "", err
	}
	copy(buf, b)
	return unsafe.String(&buf[0], len(buf)), nil
}

// String arena sizes: strings shorter than stringArenaLarge bytes, after
// the first, are cut from chunks that start at stringArenaMin bytes and
// double up to stringArenaMax.
const (
	stringArenaMin   = 64
	stringArenaMax   = 4096
	stringArenaLarge = 256
)

// stringBuf charges n bytes to the lift's budget and returns them from
// stringBytes.
func (c *call) stringBuf(n int) ([]byte, error) {
	if err := c.charge(uint64(n)); err != nil {
		return nil, err
	}
	return c.stringBytes(n), nil
}

// stringBytes returns n bytes to build a lifted string in. Lifting a value
// with many strings would otherwise allocate once per string; instead
// strings share chunks that live as long as the call's value. Each
// returned slice is written once, before the string is made from it, and
// never again (the arena only hands out the unused rest of a chunk), so
// the strings are immutable as Go requires. The cost is that a string
// kept alive keeps its whole chunk (at most stringArenaMax bytes, or its
// own size) alive.
//
// Without a hint, long strings are allocated on their own and so is the
// first short one (a value with one short string needs no chunk); later
// short ones share chunks growing from stringArenaMin. With a hint (the
// string bytes of the previous lift of the same value, see
// FuncCodec.LiftResult), the first chunk has that size, so a value like
// the last one takes one allocation for all its strings.
func (c *call) stringBytes(n int) []byte {
	c.strBytes += n
	if n > len(c.strs) {
		switch {
		case c.chunk == 0 && c.hint >= n:
			c.chunk = c.hint
			c.strs = make([]byte, c.hint)
		case n >= stringArenaLarge:
			return make([]byte, n)
		case c.chunk == 0:
			c.chunk = stringArenaMin / 2
			return make([]byte, n)
		default:
			c.chunk = min(2*c.chunk, stringArenaMax)
			c.strs = make([]byte, max(c.chunk, n))
		}
	}
	b := c.strs[:n:n]
	c.strs = c.strs[n:]
	return b
}

// stringHint is the hint for the next lift of a value whose strings took
// n bytes this time (stringBytes): no more than stringArenaMax, so that a
// chunk sized by an earlier lift holds at most that much unused.
func stringHint(n int) int { return min(n, stringArenaMax) }

// decodeUTF16 validates and transcodes UTF-16LE to UTF-8 in two passes:
// the first validates and sizes, the second fills an exactly sized buffer
// (from the string arena) that becomes the string without a copy. Both
// take four ASCII code units at a time.
func (c *call) decodeUTF16(b []byte) (string, error) {
	n := 0
	for i := 0; i+1 < len(b); i += 2 {
		if i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0xff80ff80ff80ff80 == 0 {
			n += 4
			i += 6
			continue
		}
		switch u := rune(b[i]) | rune(b[i+1])<<8; {
		case u < 0x80:
			n++
		case u < 0x800:
			n += 2
		case u < 0xD800 || u >= 0xE000:
			n += 3
		case u < 0xDC00 && i+3 < len(b) && b[i+3]&0xFC == 0xDC:
			n += 4
			i += 2
		default:
			return "", trap("unpaired UTF-16 surrogate %#x", u)
		}
	}
	if n == 0 {
		return "", nil
	}
	buf, err := c.stringBuf(n)
	if err != nil {
		return "", err
	}
	w := 0
	for i := 0; i+1 < len(b); i += 2 {
		if i+8 <= len(b) {
			if x := binary.LittleEndian.Uint64(b[i:]); x&0xff80ff80ff80ff80 == 0 {
				binary.LittleEndian.PutUint32(buf[w:], uint32(x&0xff|x>>8&0xff00|x>>16&0xff0000|x>>24&0xff000000))
				w += 4
				i += 6
				continue
			}
		}
		u := rune(b[i]) | rune(b[i+1])<<8
		if u >= 0xD800 && u < 0xDC00 {
			u = 0x10000 + (u-0xD800)<<10 + (rune(b[i+2]) | rune(b[i+3])<<8 - 0xDC00)
			i += 2
		}
		w += utf8.EncodeRune(buf[w:], u)
	}
	return unsafe.String(&buf[0], n), nil
}

// decodeLatin1 widens each byte to the code point of the same value: one
// UTF-8 byte below 0x80, two from there.
func (c *call) decodeLatin1(b []byte) (string, error) {
	if len(b) == 0 {
		return "", nil
	}
	n := asciiPrefix(b)
	size := len(b)
	for _, x := range b[n:] {
		if x >= utf8.RuneSelf {
			size++
		}
	}
	buf, err := c.stringBuf(size)
	if err != nil {
		return "", err
	}
	w := copy(buf, b[:n])
	for _, x := range b[n:] {
		w += utf8.EncodeRune(buf[w:], rune(x))
	}
	return unsafe.String(&buf[0], size), nil
}

// asciiPrefix returns the length of the longest ASCII prefix of s.
func asciiPrefix[S string | []byte](s S) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if x&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
	}
	return i
}

// lowerString stores a host string into freshly allocated guest memory in
// the site's encoding and returns the pointer and (tagged) code units. A Go
// string is UTF-8 with len(s) code units, so per store_string_into_range
// this is a plain copy for utf8, store_utf8_to_utf16 for utf16 and
// store_string_to_latin1_or_utf16 for latin1+utf16.
func (c *call) lowerString(t *Type, s string) (ptr, units uint32, err error) {
	if len(s) > maxStringByteLength {
		return 0, 0, badValue(t, "string of %d bytes (the limit is 2^28-1)", len(s))
	}
	if !utf8.ValidString(s) {
		return 0, 0, badValue(t, "string with invalid UTF-8 %q", s)
	}
	n := uint32(len(s))
	switch c.opts.Encoding {
	case UTF8:
		if ptr, err = c.realloc(0, 0, 1, n); err != nil {
			return 0, 0, err
		}
		copy(c.mem[ptr:], s)
		return ptr, n, nil
	case UTF16:
		return c.storeUTF8ToUTF16(s)
	case Latin1UTF16:
		return c.storeLatin1OrUTF16(s)
	}
	return 0, 0, fmt.Errorf("canon: unknown string encoding %d", c.opts.Encoding)
}

// storeUTF8ToUTF16 allocates the worst case (two bytes per UTF-8 byte),
// transcodes, and shrinks the allocation if the result is smaller.
func (c *call) storeUTF8ToUTF16(s string) (ptr, units uint32, err error) {
	worst := 2 * uint32(len(s))
	if ptr, err = c.realloc(0, 0, 2, worst); err != nil {
		return 0, 0, err
	}
	size := uint32(encodeUTF16(c.mem[ptr:uint64(ptr)+uint64(worst)], s))
	if size < worst {
		if ptr, err = c.realloc(ptr, worst, 2, size); err != nil {
			return 0, 0, err
		}
	}
	return ptr, size / 2, nil
}

// storeLatin1OrUTF16 speculates that s fits Latin-1, allocating one byte
// per UTF-8 byte. At the first code point beyond Latin-1 it reallocates to
// the UTF-16 worst case, widens the bytes written so far in place, and
// finishes in UTF-16, tagging the code-unit count. Either way a final
// realloc shrinks the block to the bytes used.
func (c *call) storeLatin1OrUTF16(s string) (ptr, units uint32, err error) {
	n := uint32(len(s))
	if ptr, err = c.realloc(0, 0, 2, n); err != nil {
		return 0, 0, err
	}
	d := uint32(asciiPrefix(s))
	copy(c.mem[ptr:], s[:d])
	for i := int(d); i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if r < 0x100 {
			c.mem[ptr+d] = byte(r)
			d++
			i += size
			continue
		}
		worst := 2 * n
		if ptr, err = c.realloc(ptr, n, 2, worst); err != nil {
			return 0, 0, err
		}
		m := c.mem[ptr : uint64(ptr)+uint64(worst)]
		for j := int(d) - 1; j >= 0; j-- {
			m[2*j] = m[j]
			m[2*j+1] = 0
		}
		size16 := 2*d + uint32(encodeUTF16(m[2*d:], s[i:]))
		if worst > size16 {
			if ptr, err = c.realloc(ptr, worst, 2, size16); err != nil {
				return 0, 0, err
			}
		}
		return ptr, size16/2 | utf16Tag, nil
	}
	if d < n {
		if ptr, err = c.realloc(ptr, n, 2, d); err != nil {
			return 0, 0, err
		}
	}
	return ptr, d, nil
}

// encodeUTF16 writes valid UTF-8 s as UTF-16LE into dst, which must have
// room for 2*len(s) bytes, and returns the bytes written.
func encodeUTF16(dst []byte, s string) int {
	w := 0
	n := asciiPrefix(s)
	for ; w+8 <= 2*n; w += 8 {
		i := w / 2
		binary.LittleEndian.PutUint64(dst[w:], uint64(s[i])|uint64(s[i+1])<<16|uint64(s[i+2])<<32|uint64(s[i+3])<<48)
	}
	for i := w / 2; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if r < 0x10000 {
			dst[w], dst[w+1] = byte(r), byte(r>>8)
			w += 2
			continue
		}
		r -= 0x10000
		hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
		dst[w], dst[w+1], dst[w+2], dst[w+3] = byte(hi), byte(hi>>8), byte(lo), byte(lo>>8)
		w += 4
	}
	return w
}
