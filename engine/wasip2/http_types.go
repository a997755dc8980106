package wasip2

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"
)

// fields is an ordered header list; immutable ones belong to a request
// already sent or to a response.
type fields struct {
	list      []fieldEntry
	immutable bool
}

// fieldEntry is one header: tuple<field-name, field-value>.
type fieldEntry struct {
	Name  string
	Value []byte
}

// forbiddenHeaders are hop-by-hop or connection-level headers the host
// manages itself.
var forbiddenHeaders = map[string]bool{
	"connection": true, "keep-alive": true, "proxy-authenticate": true, "proxy-authorization": true,
	"proxy-connection": true, "te": true, "transfer-encoding": true, "upgrade": true, "host": true,
	"http2-settings": true,
}

func validHeaderName(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

func validHeaderValue(v []byte) bool {
	for _, c := range v {
		if c == '\r' || c == '\n' || c == 0 {
			return false
		}
	}
	return true
}

// headerError is wasi:http/types.header-error.
type headerError struct {
	Case uint32 // hdrInvalid, hdrForbidden, hdrImmutable
}

const (
	hdrInvalid = iota
	hdrForbidden
	hdrImmutable
)

// check says why name and vals may not be set, if they may not.
func (f *fields) check(name string, vals ...[]byte) (headerError, bool) {
	if f.immutable {
		return headerError{hdrImmutable}, false
	}
	if !validHeaderName(name) {
		return headerError{hdrInvalid}, false
	}
	for _, v := range vals {
		if !validHeaderValue(v) {
			return headerError{hdrInvalid}, false
		}
	}
	if forbiddenHeaders[strings.ToLower(name)] {
		return headerError{hdrForbidden}, false
	}
	return headerError{}, true
}

func (f *fields) del(name string) {
	out := f.list[:0]
	for _, kv := range f.list {
		if !strings.EqualFold(kv.Name, name) {
			out = append(out, kv)
		}
	}
	f.list = out
}

func (f *fields) clone() *fields {
	return &fields{list: append([]fieldEntry(nil), f.list...)}
}

func fieldsFromHeader(h http.Header) *fields {
	f := &fields{immutable: true}
	for k, vs := range h {
		for _, v := range vs {
			f.list = append(f.list, fieldEntry{Name: strings.ToLower(k), Value: []byte(v)})
		}
	}
	return f
}

// outRequest is an outgoing-request being built.
type outRequest struct {
	method    httpMethod
	path      opt[string]
	scheme    opt[httpScheme]
	authority opt[string]
	headers   *fields
	body      *outBody
	bodyTaken bool
}

// httpMethod is wasi:http/types.method.
type httpMethod struct {
	Case  uint32 // methodNames, then methodOther
	Other string
}

const methodOther = 9

// httpScheme is wasi:http/types.scheme.
type httpScheme struct {
	Case  uint32 // schemeHTTP, schemeHTTPS, or other
	Other string
}

const (
	schemeHTTP = iota
	schemeHTTPS
)

type reqOptions struct {
	connect, firstByte, betweenBytes opt[uint64] // option<duration>
}

// outBody is an outgoing-body: the guest writes into p, net/http reads it.
type outBody struct {
	p           *pipe
	streamTaken bool
}

// futureResponse is resolved by the goroutine running the request.
type futureResponse struct {
	mu     sync.Mutex
	done   bool
	taken  bool
	resp   *inResponse
	errVal httpErrorCode // when the request failed
	sig    signal
	cancel context.CancelFunc
}

func (f *futureResponse) state() (bool, <-chan struct{}, time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return true, nil, time.Time{}
	}
	return false, f.sig.wait(), time.Time{}
}

// get is future-incoming-response.get: none until the request is done,
// then its response or error-code once, then an error.
func (f *futureResponse) get() responseOutcome {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case !f.done:
		return none[res[res[*inResponse, httpErrorCode], unit]]()
	case f.taken:
		return some(errv[res[*inResponse, httpErrorCode]](unit{}))
	}
	f.taken = true
	if f.resp == nil {
		return some(okv[unit](errv[*inResponse](f.errVal)))
	}
	return some(okv[unit](okv[httpErrorCode](f.resp)))
}

func (f *futureResponse) resolve(r *inResponse, errVal httpErrorCode) {
	f.mu.Lock()
	f.done, f.resp, f.errVal = true, r, errVal
	f.mu.Unlock()
	f.sig.notify()
}

func (f *futureResponse) drop() {
	f.mu.Lock()
	taken := f.taken
	f.mu.Unlock()
	if !taken {
		f.cancel() // nobody will read the response
	}
}

type inResponse struct {
	status   uint16
	headers  *fields
	body     *pipe
	consumed bool
	cancel   context.CancelFunc
}

type inBody struct {
	resp        *inResponse
	streamTaken bool
}

// futureTrailers is always resolved: trailers are not forwarded, so a
// finished body has none.
type futureTrailers struct {
	alwaysReady
	taken bool
}
