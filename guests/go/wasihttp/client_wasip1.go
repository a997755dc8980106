//go:build wasip1

package wasihttp

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"unsafe"
)

// New is the client over the host's wasi:http outgoing-handler.
func New() Doer { return client{} }

type client struct{}

// retArea is a return area: 8-aligned and larger than any result the
// client reads (the biggest, future-incoming-response.get, is 56 bytes).
type retArea [8]uint64

func (r *retArea) ptr() unsafe.Pointer  { return unsafe.Pointer(&r[0]) }
func (r *retArea) u8(off uintptr) uint8 { return *(*uint8)(unsafe.Add(r.ptr(), off)) }
func (r *retArea) u32(off uintptr) uint32 {
	return *(*uint32)(unsafe.Add(r.ptr(), off))
}
func (r *retArea) u64(off uintptr) uint64 {
	return *(*uint64)(unsafe.Add(r.ptr(), off))
}

// guestBytes is the n bytes the host wrote at p, not copied: the host
// allocated them through cabi_realloc, which pins every block until the
// export returns, and never writes a block twice, so they are the
// caller's for the rest of the call (and longer, while referenced).
func guestBytes(p, n uint32) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(addr(p)), n)
}

// addr is guest address p as a pointer: in wasm, linear-memory offsets
// are the pointers.
func addr(p uint32) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), p) }

var methods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}

func (client) Do(req *Request) (*Response, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, fmt.Errorf("request URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("request URL %q: scheme must be http or https", req.URL)
	}
	ret := new(retArea)
	hdr, err := newFields(req.Header, [2]string{"content-length", strconv.Itoa(len(req.Body))}, ret)
	if err != nil {
		return nil, err
	}
	r := outRequestNew(hdr)
	if err := setRequest(r, req.Method, u); err != nil {
		outRequestDrop(r)
		return nil, err
	}
	outRequestBody(r, ret.ptr())
	if ret.u8(0) != 0 {
		outRequestDrop(r)
		return nil, errors.New("the host refused the request body")
	}
	body := ret.u32(4)
	outBodyWrite(body, ret.ptr())
	if ret.u8(0) != 0 {
		outRequestDrop(r)
		return nil, errors.New("the host refused the request body stream")
	}
	stream := ret.u32(4)
	// The request goes out before its body is written: the host reads the
	// body while sending, so a body larger than its pipe never deadlocks.
	handle(r, 0, 0, ret.ptr())
	if ret.u8(0) != 0 {
		err := errorCode(ret, 8)
		outStreamDrop(stream)
		return nil, err
	}
	future := ret.u32(8)
	werr := writeAll(stream, req.Body, ret)
	outStreamDrop(stream)
	outBodyFinish(body, 0, 0, ret.ptr())
	if werr == nil && ret.u8(0) != 0 {
		werr = errorCode(ret, 8)
	}
	resp, err := await(future, ret)
	if err != nil {
		return nil, err
	}
	if werr != nil {
		inResponseDrop(resp)
		return nil, fmt.Errorf("sending the request body: %w", werr)
	}
	return readResponse(resp, ret)
}

// newFields is the request's headers as one fields resource, made by a
// single from-list call rather than one append per header: each host
// call costs microseconds of canonical-ABI work in the engine.
func newFields(header [][2]string, last [2]string, ret *retArea) (uint32, error) {
	// list<tuple<field-name, field-value>>: each element the name's and
	// the value's (pointer, length), four u32.
	all := append(header[:len(header):len(header)], last)
	entries := make([][4]uint32, len(all))
	for i, kv := range all {
		entries[i] = [4]uint32{uint32(uintptr(unsafe.Pointer(unsafe.StringData(kv[0])))), uint32(len(kv[0])),
			uint32(uintptr(unsafe.Pointer(unsafe.StringData(kv[1])))), uint32(len(kv[1]))}
	}
	fieldsFromList(unsafe.Pointer(unsafe.SliceData(entries)), uint32(len(entries)), ret.ptr())
	runtime.KeepAlive(all)
	runtime.KeepAlive(entries)
	// result<fields, header-error>: the handle, or the error case, at 4.
	if ret.u8(0) != 0 {
		return 0, fmt.Errorf("the host refused the request headers (%s)", headerErrors[min(int(ret.u8(4)), len(headerErrors)-1)])
	}
	return ret.u32(4), nil
}

// headerErrors are wasi:http's header-error cases, in order.
var headerErrors = []string{"invalid-syntax", "forbidden", "immutable", "unknown header-error"}

func setRequest(r uint32, method string, u *url.URL) error {
	m := strings.ToUpper(method)
	disc := uint32(len(methods))
	for i, name := range methods {
		if name == m {
			disc = uint32(i)
		}
	}
	if outRequestSetMethod(r, disc, unsafe.Pointer(unsafe.StringData(m)), uint32(len(m))) != 0 {
		return fmt.Errorf("the host refused method %q", method)
	}
	runtime.KeepAlive(m)
	scheme := uint32(0)
	if u.Scheme == "https" {
		scheme = 1
	}
	if outRequestSetScheme(r, 1, scheme, nil, 0) != 0 {
		return fmt.Errorf("the host refused scheme %q", u.Scheme)
	}
	host := u.Host
	if outRequestSetAuthority(r, 1, unsafe.Pointer(unsafe.StringData(host)), uint32(len(host))) != 0 {
		return fmt.Errorf("the host refused authority %q", host)
	}
	runtime.KeepAlive(host)
	path := u.RequestURI()
	if outRequestSetPath(r, 1, unsafe.Pointer(unsafe.StringData(path)), uint32(len(path))) != 0 {
		return fmt.Errorf("the host refused path %q", path)
	}
	runtime.KeepAlive(path)
	return nil
}

// writeAll writes b in as few calls as the stream allows: as much as
// check-write permits per write (the host's body pipe takes 256 KiB at
// once), waiting on the stream's pollable when it has no room, then one
// blocking-flush. blocking-write-and-flush would be one call per 4096
// bytes, the most WASI lets it take.
func writeAll(stream uint32, b []byte, ret *retArea) error {
	for len(b) > 0 {
		// result<u64, stream-error>: the count or the error at 8.
		outStreamCheckWrite(stream, ret.ptr())
		if ret.u8(0) != 0 {
			return streamError(ret, 8)
		}
		n := int(min(ret.u64(8), uint64(len(b))))
		if n == 0 {
			p := outStreamSubscribe(stream)
			pollableBlock(p)
			pollableDrop(p)
			continue
		}
		outStreamWrite(stream, unsafe.Pointer(unsafe.SliceData(b)), uint32(n), ret.ptr())
		runtime.KeepAlive(b)
		if ret.u8(0) != 0 {
			return streamError(ret, 4)
		}
		b = b[n:]
	}
	outStreamBlockingFlush(stream, ret.ptr())
	if ret.u8(0) != 0 {
		return streamError(ret, 4)
	}
	return nil
}

// await blocks until the response head arrives and returns its handle.
func await(future uint32, ret *retArea) (uint32, error) {
	p := futureSubscribe(future)
	pollableBlock(p)
	pollableDrop(p)
	futureGet(future, ret.ptr())
	futureDrop(future)
	// option<result<result<incoming-response, error-code>>>: option at 0,
	// outer result at 8, inner result at 16, its payload at 24.
	switch {
	case ret.u8(0) == 0:
		return 0, errors.New("the response was not ready after its pollable fired")
	case ret.u8(8) != 0:
		return 0, errors.New("the response was already taken")
	case ret.u8(16) != 0:
		return 0, errorCode(ret, 24)
	}
	return ret.u32(24), nil
}

func readResponse(resp uint32, ret *retArea) (*Response, error) {
	status := int(inResponseStatus(resp))
	hdr := inResponseHeaders(resp)
	fieldsEntries(hdr, ret.ptr())
	header := map[string][]string{}
	base, n := ret.u32(0), ret.u32(4)
	for i := range n {
		e := base + i*16
		at := func(off uint32) uint32 { return *(*uint32)(addr(e + off)) }
		name := strings.ToLower(string(guestBytes(at(0), at(4))))
		header[name] = append(header[name], string(guestBytes(at(8), at(12))))
	}
	fieldsDrop(hdr)
	inResponseConsume(resp, ret.ptr())
	if ret.u8(0) != 0 {
		inResponseDrop(resp)
		return nil, errors.New("the response body was already consumed")
	}
	body := ret.u32(4)
	inBodyStream(body, ret.ptr())
	if ret.u8(0) != 0 {
		inBodyDrop(body)
		inResponseDrop(resp)
		return nil, errors.New("the response body stream was already taken")
	}
	return &Response{Status: status, Header: header,
		Body: &bodyReader{stream: ret.u32(4), body: body, resp: resp, ret: ret}}, nil
}

// bodyReader reads a response body from its wasi:io input-stream.
type bodyReader struct {
	stream, body, resp uint32
	ret                *retArea
	pending            []byte
	err                error
	closed             bool
}

// readChunk is how much one blocking-read asks for.
const readChunk = 64 << 10

func (b *bodyReader) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		if b.closed {
			return 0, errors.New("read after close")
		}
		inStreamRead(b.stream, readChunk, b.ret.ptr())
		if b.ret.u8(0) != 0 {
			b.err = streamError(b.ret, 4)
			continue
		}
		b.pending = guestBytes(b.ret.u32(4), b.ret.u32(8))
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// Close drops the stream before the body and the body before the
// response: children go first.
func (b *bodyReader) Close() error {
	if !b.closed {
		b.closed = true
		inStreamDrop(b.stream)
		inBodyDrop(b.body)
		inResponseDrop(b.resp)
	}
	return nil
}

// streamError reads a stream-error at off: closed is the end of the
// stream; last-operation-failed carries an error resource, dropped here.
func streamError(ret *retArea, off uintptr) error {
	if ret.u8(off) == 1 {
		return io.EOF
	}
	ioErrorDrop(ret.u32(off + 4))
	return errors.New("stream operation failed")
}

// errorCodes are wasi:http's error-code cases, in order.
var errorCodes = []string{
	"DNS-timeout", "DNS-error", "destination-not-found", "destination-unavailable",
	"destination-IP-prohibited", "destination-IP-unroutable", "connection-refused",
	"connection-terminated", "connection-timeout", "connection-read-timeout",
	"connection-write-timeout", "connection-limit-reached", "TLS-protocol-error",
	"TLS-certificate-error", "TLS-alert-received", "HTTP-request-denied",
	"HTTP-request-length-required", "HTTP-request-body-size", "HTTP-request-method-invalid",
	"HTTP-request-URI-invalid", "HTTP-request-URI-too-long", "HTTP-request-header-section-size",
	"HTTP-request-header-size", "HTTP-request-trailer-section-size", "HTTP-request-trailer-size",
	"HTTP-response-incomplete", "HTTP-response-header-section-size", "HTTP-response-header-size",
	"HTTP-response-body-size", "HTTP-response-trailer-section-size", "HTTP-response-trailer-size",
	"HTTP-response-transfer-coding", "HTTP-response-content-coding", "HTTP-response-timeout",
	"HTTP-upgrade-failed", "HTTP-protocol-error", "loop-detected", "configuration-error",
	"internal-error",
}

const internalError = 38

// errorCode reads the error-code variant at off (its payload 8 further on).
func errorCode(ret *retArea, off uintptr) error {
	d := int(ret.u8(off))
	if d >= len(errorCodes) {
		return &Error{Code: fmt.Sprintf("error-code %d", d)}
	}
	e := &Error{Code: errorCodes[d]}
	if d == internalError && ret.u8(off+8) != 0 {
		e.Detail = string(guestBytes(ret.u32(off+12), ret.u32(off+16)))
	}
	return e
}
