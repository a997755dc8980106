package wasip2

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// bodyBuffer bounds what a body pipe holds: enough to stream at full speed,
// small enough that a slow reader holds back the writer.
const bodyBuffer = 256 << 10

var methodNames = [...]string{"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}

// startRequest checks the request against the network rules and, if
// allowed, starts it on a goroutine. A nil future comes with the error-code
// to return.
func (c *Ctx) startRequest(r *outRequest, o *reqOptions, tr *http.Transport) (*futureResponse, httpErrorCode) {
	r.headers.immutable = true
	scheme := "http"
	if sv, ok := r.scheme.get(); ok {
		switch sv.Case {
		case schemeHTTP:
			scheme = "http"
		case schemeHTTPS:
			scheme = "https"
		default:
			scheme = strings.ToLower(sv.Other)
		}
	}
	authority, ok := r.authority.get()
	if !ok || authority == "" {
		return nil, httpErr(httpRequestDenied) // no authority: nothing a rule can admit
	}
	if scheme != "http" && scheme != "https" {
		return nil, httpErr(httpRequestURIInvalid)
	}
	u, err := url.Parse(scheme + "://" + authority + "/")
	if err != nil || u.Host != authority || u.User != nil {
		return nil, httpErr(httpRequestURIInvalid)
	}
	port := defaultPort(scheme)
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return nil, httpErr(httpRequestURIInvalid)
		}
		port = uint16(n)
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	// The rule check comes first: a denied request never resolves a name
	// or opens a connection. The dial's check by name is made here too,
	// for every request, since a pooled connection is not dialled again.
	if !c.egress.Allows(scheme, host, port) || !c.egress.AdmitsDial(host, port) {
		return nil, httpErr(httpRequestDenied)
	}
	method := r.method.Other
	if r.method.Case < uint32(len(methodNames)) {
		method = methodNames[r.method.Case]
	}
	path := "/"
	if p, ok := r.path.get(); ok {
		path = p
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
	}
	target, err := url.Parse(scheme + "://" + authority + path)
	if err != nil {
		return nil, httpErr(httpRequestURIInvalid)
	}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), storeEgressKey{}, c.egress))
	if d, ok := o.connect.get(); ok {
		ctx = context.WithValue(ctx, connectTimeoutKey{}, time.Duration(d))
	}
	var body io.ReadCloser = http.NoBody
	if r.body != nil {
		body = r.body.p
	}
	req, err := http.NewRequestWithContext(ctx, method, target.String(), body)
	if err != nil {
		cancel()
		return nil, httpErr(httpRequestMethodInvalid)
	}
	req.Host = authority
	for _, kv := range r.headers.list {
		req.Header.Add(kv.Name, string(kv.Value))
	}
	if err := c.g.Credential.shape(req); err != nil {
		cancel()
		c.egress.log.Warn("wasi:http request refused", "url", target.Redacted(), "reason", err.Error())
		return nil, httpErr(httpRequestDenied)
	}
	c.g.Credential.apply(req, origin(scheme, host, port))
	if cl := req.Header.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil {
			req.ContentLength = n
		}
	} else if r.body == nil {
		req.ContentLength = 0
	} else {
		req.ContentLength = -1
	}
	f := &futureResponse{cancel: cancel}
	c.trackCancel(cancel)
	go c.runRequest(ctx, cancel, tr, req, o, f)
	return f, httpErrorCode{}
}

type connectTimeoutKey struct{}

func (c *Ctx) runRequest(ctx context.Context, cancel context.CancelFunc, tr *http.Transport, req *http.Request, o *reqOptions, f *futureResponse) {
	var firstByte *time.Timer
	timedOut := make(chan uint32, 1)
	if d, ok := o.firstByte.get(); ok {
		firstByte = time.AfterFunc(time.Duration(d), func() { timedOut <- httpResponseTimeout; cancel() })
	}
	resp, err := tr.RoundTrip(req)
	if firstByte != nil {
		firstByte.Stop()
	}
	if err != nil {
		cancel()
		select {
		case code := <-timedOut:
			f.resolve(nil, httpErr(code))
		default:
			v, _ := httpErrValue(c.g.Credential.redactErr(err))
			f.resolve(nil, v)
		}
		return
	}
	if err := c.g.Credential.decode(resp); err != nil {
		resp.Body.Close()
		cancel()
		refused := httpErr(httpResponseContentCoding)
		var ce *ContentCodingError
		if errors.As(err, &ce) {
			refused.HTTPResponseContentCoding = some(c.g.Credential.fragments().scrubString(ce.Coding))
		}
		c.egress.log.Warn("wasi:http response refused", "url", req.URL.Redacted(), "reason", c.g.Credential.redactErr(err).Error())
		f.resolve(nil, refused)
		return
	}
	c.g.Credential.redactHeader(resp.Header)
	r := &inResponse{status: uint16(resp.StatusCode), headers: fieldsFromHeader(resp.Header), body: newPipe(bodyBuffer), cancel: cancel}
	f.resolve(r, httpErrorCode{})
	var between time.Duration
	if d, ok := o.betweenBytes.get(); ok {
		between = time.Duration(d)
	}
	go copyBody(ctx, cancel, c.g.Credential.redactBody(resp.Body), r.body, between)
}

// maxBodyChunk bounds what copyBody reads at once.
const maxBodyChunk = 64 << 10

// copyBody feeds a response body into the guest's pipe, enforcing the
// between-bytes timeout.
func copyBody(ctx context.Context, cancel context.CancelFunc, src io.ReadCloser, dst *pipe, between time.Duration) {
	defer cancel()
	defer src.Close()
	var timer *time.Timer
	var stalled atomic.Bool
	if between > 0 {
		timer = time.AfterFunc(between, func() { stalled.Store(true); cancel() })
		defer timer.Stop()
	}
	// The buffer starts at a reply's usual size and doubles while reads
	// fill it, so a short reply costs no 64 KiB.
	buf := make([]byte, firstRead)
	for {
		n, err := src.Read(buf)
		if timer != nil {
			timer.Reset(between)
		}
		if n > 0 {
			if werr := dst.writeBlocking(ctx, buf[:n]); werr != nil {
				dst.closeWrite(werr)
				return
			}
		}
		if n == len(buf) && len(buf) < maxBodyChunk {
			buf = make([]byte, 2*len(buf))
		}
		if err == io.EOF {
			dst.closeWrite(nil)
			return
		}
		if err != nil {
			if stalled.Load() {
				err = &httpError{code: httpErr(httpConnectionReadTimeout), err: err}
			}
			dst.closeWrite(err)
			return
		}
	}
}

func (c *Ctx) trackCancel(cancel context.CancelFunc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cancels = append(c.cancels, cancel)
}

// defaultPort is the port a URL of scheme means when it names none.
func defaultPort(scheme string) uint16 {
	if scheme == "https" {
		return 443
	}
	return 80
}
