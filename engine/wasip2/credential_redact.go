package wasip2

import (
	"errors"
	"io"
	"net/http"
)

// FragmentLen is the shortest run of the secret the host redacts: every
// run of FragmentLen bytes that occurs anywhere in the secret is replaced
// wherever it appears in what a credentialed store reads, not only the
// whole secret. A response that gives back part of the key (a server
// truncating an echo where the guest padded it to, a header split in
// two) therefore yields at most FragmentLen-1 bytes of it at either end.
// A secret shorter than FragmentLen is matched whole.
const FragmentLen = 8

// fragments is the set of the secret's FragmentLen-byte runs, each packed
// into a uint64, with a 64 Ki-bit filter that rules out nearly every
// window of ordinary text before the set is consulted.
type fragments struct {
	n      int    // run length: min(FragmentLen, len(secret))
	mask   uint64 // the low n bytes
	filter [1 << 10]uint64
	set    map[uint64]struct{}
}

func newFragments(secret string) *fragments {
	f := &fragments{n: min(FragmentLen, len(secret)), set: map[uint64]struct{}{}}
	f.mask = ^uint64(0) >> (64 - 8*f.n)
	var w uint64
	for i := 0; i < len(secret); i++ {
		w = (w<<8 | uint64(secret[i])) & f.mask
		if i+1 >= f.n {
			f.set[w] = struct{}{}
			h := fragHash(w)
			f.filter[h>>6] |= 1 << (h & 63)
		}
	}
	return f
}

func fragHash(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> 48 }

func (f *fragments) has(w uint64) bool {
	h := fragHash(w)
	if f.filter[h>>6]&(1<<(h&63)) == 0 {
		return false
	}
	_, ok := f.set[w]
	return ok
}

// scrubber redacts a stream written to it in pieces of any size: each
// maximal run of bytes covered by some occurrence of a fragment becomes
// one Redacted. A byte is released once every window that could cover
// it has been seen, so it holds back the last n-1 bytes. A match that
// covers a held byte began before the held ones (a window starting among
// them has not ended yet), so what is covered of them is a prefix, and
// one count (cover) says how long.
type scrubber struct {
	f     *fragments
	w     uint64 // the last n bytes seen
	seen  int    // bytes seen, up to n
	hold  []byte // the last n-1 bytes seen, not yet released
	cover int    // hold[:cover] is covered by a match already seen
	inRun bool   // the last byte released was redacted
	buf   []byte // scratch: hold, then what write was given
}

// release appends plain, then, if run, the marker of a covered run
// (unless the run continues one already marked).
func (s *scrubber) release(out, plain []byte, run bool) []byte {
	if len(plain) > 0 {
		out = append(out, plain...)
		s.inRun = false
	}
	if run {
		if !s.inRun {
			out = append(out, Redacted...)
		}
		s.inRun = true
	}
	return out
}

// write scrubs p and appends what can be released to out.
func (s *scrubber) write(out, p []byte) []byte {
	n := s.f.n
	buf := append(append(s.buf[:0], s.hold...), p...)
	s.buf = buf
	rs, re := 0, s.cover // the covered run being extended: buf[rs:re]
	pos := 0             // buf[:pos] is released
	w, seen := s.w, s.seen
	for i := len(s.hold); i < len(buf); i++ {
		w = (w<<8 | uint64(buf[i])) & s.f.mask
		if seen < n {
			if seen++; seen < n {
				continue
			}
		}
		if !s.f.has(w) {
			continue
		}
		if a := i + 1 - n; a > re {
			// A gap: the run so far is complete.
			out = s.release(out, buf[pos:rs], re > rs)
			pos, rs = re, a
		}
		re = i + 1
	}
	s.w, s.seen = w, seen
	rel := max(len(buf)-(n-1), 0) // buf[:rel] is final
	if re > rs && re <= rel {
		out = s.release(out, buf[pos:rs], true)
		pos, rs, re = re, 0, 0
	}
	s.cover = 0
	if re > rs {
		// The run goes on into the held bytes.
		out = s.release(out, buf[pos:rs], true)
		s.cover = re - rel
	} else {
		out = s.release(out, buf[pos:rel], false)
	}
	s.hold = append(s.hold[:0], buf[rel:]...)
	return out
}

// flush releases what is held back: the stream has ended, so no later
// window can cover it.
func (s *scrubber) flush(out []byte) []byte {
	if s.cover > 0 {
		out = s.release(out, nil, true)
	}
	out = s.release(out, s.hold[s.cover:], false)
	s.hold, s.cover = s.hold[:0], 0
	return out
}

// scrub is b with every fragment of the secret redacted.
func (f *fragments) scrub(b []byte) []byte {
	s := &scrubber{f: f}
	return s.flush(s.write(make([]byte, 0, len(b)), b))
}

func (f *fragments) scrubString(v string) string {
	if len(v) < f.n {
		return v
	}
	return string(f.scrub([]byte(v)))
}

// redactHeader redacts the secret's fragments from every response header
// name and value.
func (c *Credential) redactHeader(h http.Header) {
	f := c.fragments()
	if f == nil {
		return
	}
	for k, vs := range h {
		for i, v := range vs {
			vs[i] = f.scrubString(v)
		}
		if rk := f.scrubString(k); rk != k {
			delete(h, k)
			h[rk] = append(h[rk], vs...)
		}
	}
}

// redactErr is err with the secret's fragments taken out of its text, for
// errors whose text reaches the guest (internal-error's message, an
// io-error's debug string); errors.Is and As still see err.
func (c *Credential) redactErr(err error) error {
	f := c.fragments()
	if f == nil || err == nil {
		return err
	}
	if msg := f.scrubString(err.Error()); msg != err.Error() {
		return &redactedError{err: err, msg: msg}
	}
	return err
}

type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactBody wraps a response body so that no fragment of the secret
// reaches the guest, however the bytes are split across reads.
func (c *Credential) redactBody(body io.ReadCloser) io.ReadCloser {
	f := c.fragments()
	if f == nil {
		return body
	}
	return &redactReader{src: body, c: c, s: scrubber{f: f}}
}

// redactReader scrubs a body as it is read.
type redactReader struct {
	src io.ReadCloser
	c   *Credential
	s   scrubber
	in  []byte
	out []byte // scrubbed, not yet returned
	err error
}

func (r *redactReader) Read(p []byte) (int, error) {
	for len(r.out) == 0 && r.err == nil {
		if r.in == nil {
			r.in = make([]byte, 32<<10)
		}
		n, err := r.src.Read(r.in)
		r.out = r.s.write(r.out[:0], r.in[:n])
		if err != nil {
			r.out = r.s.flush(r.out)
			r.err = err
			if !errors.Is(err, io.EOF) {
				r.err = r.c.redactErr(err)
			}
		}
	}
	if len(r.out) == 0 {
		return 0, r.err
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}

func (r *redactReader) Close() error { return r.src.Close() }
