package wasip2

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mur-go/mur/engine/wit"
)

// fields is an ordered header list; immutable ones belong to a request
// already sent or to a response.
type fields struct {
	list      [][2]any // name string, value []byte
	immutable bool
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

const (
	hdrInvalid = iota
	hdrForbidden
	hdrImmutable
)

func (f *fields) check(name string, vals ...[]byte) (uint32, bool) {
	if f.immutable {
		return hdrImmutable, false
	}
	if !validHeaderName(name) {
		return hdrInvalid, false
	}
	for _, v := range vals {
		if !validHeaderValue(v) {
			return hdrInvalid, false
		}
	}
	if forbiddenHeaders[strings.ToLower(name)] {
		return hdrForbidden, false
	}
	return 0, true
}

func (f *fields) del(name string) {
	out := f.list[:0]
	for _, kv := range f.list {
		if !strings.EqualFold(kv[0].(string), name) {
			out = append(out, kv)
		}
	}
	f.list = out
}

func (f *fields) clone() *fields {
	return &fields{list: append([][2]any(nil), f.list...)}
}

func fieldsFromHeader(h http.Header) *fields {
	f := &fields{immutable: true}
	for k, vs := range h {
		for _, v := range vs {
			f.list = append(f.list, [2]any{strings.ToLower(k), []byte(v)})
		}
	}
	return f
}

// outRequest is an outgoing-request being built.
type outRequest struct {
	method    wit.VariantValue
	path      wit.OptionValue
	scheme    wit.OptionValue
	authority wit.OptionValue
	headers   *fields
	body      *outBody
	bodyTaken bool
}

type reqOptions struct {
	connect, firstByte, betweenBytes wit.OptionValue // option<duration>
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
	errVal any // error-code value when the request failed
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

func (f *futureResponse) resolve(r *inResponse, errVal any) {
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
