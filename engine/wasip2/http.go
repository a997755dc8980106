package wasip2

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mur-go/mur/engine/wit"
)

// bodyBuffer bounds what a body pipe holds: enough to stream at full speed,
// small enough that a slow reader holds back the writer.
const bodyBuffer = 256 << 10

func (h *host) registerHTTP() {
	t := h.t
	const iface = "wasi:http/types"
	for _, r := range []*wit.ResourceType{t.fields, t.inRequest, t.outRequest, t.reqOptions, t.respOutparam,
		t.inResponse, t.inBody, t.futureTrailers, t.outResponse, t.outBody, t.futureInResponse} {
		h.resource(iface, r)
	}
	h.uses(iface, t.inputStream, t.outputStream, t.pollable)
	h.resourceAs(iface, "io-error", t.ioError)
	h.resourceAs(iface, "headers", t.fields)
	h.resourceAs(iface, "trailers", t.fields)
	h.uses("wasi:http/outgoing-handler", t.outRequest, t.reqOptions, t.futureInResponse)

	unit := result(nil, nil)
	hdrRes := func(ok wit.Type) *wit.Result { return result(ok, t.headerError) }
	fself := self(t.fields)
	fm := func(name string, typ *wit.Func, f func(c *Ctx, fl *fields, a []any) (any, error)) {
		h.method(iface, "fields", name, typ, func(ctx context.Context, c *Ctx, a []any) (any, error) {
			fl, err := res[*fields](c, a[0])
			if err != nil {
				return nil, err
			}
			return f(c, fl, a)
		})
	}
	h.fn(iface, "[constructor]fields", fn(own(t.fields)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.newRes(t.fields, &fields{}), nil
	})
	h.fn(iface, "[static]fields.from-list", fn(hdrRes(own(t.fields)), param("entries", list(tuple(wit.String, list(wit.U8))))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		f := &fields{}
		entries, _ := a[0].([]any)
		for _, e := range entries {
			kv := e.([]any)
			name, _ := kv[0].(string)
			val, _ := kv[1].([]byte)
			if code, ok := f.check(name, val); !ok {
				return wit.Err(wit.VariantValue{Case: code}), nil
			}
			f.list = append(f.list, [2]any{name, val})
		}
		return wit.Ok(c.newRes(t.fields, f)), nil
	})
	fm("get", fn(list(list(wit.U8)), fself, param("name", wit.String)), func(c *Ctx, f *fields, a []any) (any, error) {
		out := []any{}
		for _, kv := range f.list {
			if strings.EqualFold(kv[0].(string), a[1].(string)) {
				out = append(out, kv[1])
			}
		}
		return out, nil
	})
	fm("has", fn(wit.Bool, fself, param("name", wit.String)), func(c *Ctx, f *fields, a []any) (any, error) {
		for _, kv := range f.list {
			if strings.EqualFold(kv[0].(string), a[1].(string)) {
				return true, nil
			}
		}
		return false, nil
	})
	fm("set", fn(hdrRes(nil), fself, param("name", wit.String), param("value", list(list(wit.U8)))), func(c *Ctx, f *fields, a []any) (any, error) {
		name := a[1].(string)
		var vals [][]byte
		for _, v := range a[2].([]any) {
			vals = append(vals, v.([]byte))
		}
		if code, ok := f.check(name, vals...); !ok {
			return wit.Err(wit.VariantValue{Case: code}), nil
		}
		f.del(name)
		for _, v := range vals {
			f.list = append(f.list, [2]any{name, v})
		}
		return wit.Ok(nil), nil
	})
	fm("delete", fn(hdrRes(nil), fself, param("name", wit.String)), func(c *Ctx, f *fields, a []any) (any, error) {
		if code, ok := f.check(a[1].(string)); !ok {
			return wit.Err(wit.VariantValue{Case: code}), nil
		}
		f.del(a[1].(string))
		return wit.Ok(nil), nil
	})
	fm("append", fn(hdrRes(nil), fself, param("name", wit.String), param("value", list(wit.U8))), func(c *Ctx, f *fields, a []any) (any, error) {
		name, val := a[1].(string), a[2].([]byte)
		if code, ok := f.check(name, val); !ok {
			return wit.Err(wit.VariantValue{Case: code}), nil
		}
		f.list = append(f.list, [2]any{name, val})
		return wit.Ok(nil), nil
	})
	fm("entries", fn(list(tuple(wit.String, list(wit.U8))), fself), func(c *Ctx, f *fields, a []any) (any, error) {
		out := make([]any, len(f.list))
		for i, kv := range f.list {
			out[i] = []any{kv[0], kv[1]}
		}
		return out, nil
	})
	fm("clone", fn(own(t.fields), fself), func(c *Ctx, f *fields, a []any) (any, error) {
		return c.newRes(t.fields, f.clone()), nil
	})

	// outgoing-request
	rself := self(t.outRequest)
	rm := func(name string, typ *wit.Func, f func(c *Ctx, r *outRequest, a []any) (any, error)) {
		h.method(iface, "outgoing-request", name, typ, func(ctx context.Context, c *Ctx, a []any) (any, error) {
			r, err := res[*outRequest](c, a[0])
			if err != nil {
				return nil, err
			}
			return f(c, r, a)
		})
	}
	h.fn(iface, "[constructor]outgoing-request", fn(own(t.outRequest), param("headers", own(t.fields))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		f, err := takeRes[*fields](c, a[0])
		if err != nil {
			return nil, err
		}
		return c.newRes(t.outRequest, &outRequest{headers: f, path: wit.None(), scheme: wit.None(), authority: wit.None()}), nil
	})
	rm("body", fn(result(own(t.outBody), nil), rself), func(c *Ctx, r *outRequest, a []any) (any, error) {
		if r.bodyTaken {
			return wit.Err(nil), nil
		}
		r.bodyTaken = true
		r.body = &outBody{p: newPipe(bodyBuffer)}
		return wit.Ok(c.newRes(t.outBody, r.body)), nil
	})
	rm("method", fn(t.method, rself), func(c *Ctx, r *outRequest, a []any) (any, error) { return r.method, nil })
	rm("set-method", fn(unit, rself, param("method", t.method)), func(c *Ctx, r *outRequest, a []any) (any, error) {
		m := a[1].(wit.VariantValue)
		if m.Case == 9 && !validHeaderName(m.Value.(string)) {
			return wit.Err(nil), nil
		}
		r.method = m
		return wit.Ok(nil), nil
	})
	optStr := option(wit.String)
	rm("path-with-query", fn(optStr, rself), func(c *Ctx, r *outRequest, a []any) (any, error) { return r.path, nil })
	rm("set-path-with-query", fn(unit, rself, param("path-with-query", optStr)), func(c *Ctx, r *outRequest, a []any) (any, error) {
		r.path = a[1].(wit.OptionValue)
		return wit.Ok(nil), nil
	})
	rm("scheme", fn(option(t.scheme), rself), func(c *Ctx, r *outRequest, a []any) (any, error) { return r.scheme, nil })
	rm("set-scheme", fn(unit, rself, param("scheme", option(t.scheme))), func(c *Ctx, r *outRequest, a []any) (any, error) {
		r.scheme = a[1].(wit.OptionValue)
		return wit.Ok(nil), nil
	})
	rm("authority", fn(optStr, rself), func(c *Ctx, r *outRequest, a []any) (any, error) { return r.authority, nil })
	rm("set-authority", fn(unit, rself, param("authority", optStr)), func(c *Ctx, r *outRequest, a []any) (any, error) {
		r.authority = a[1].(wit.OptionValue)
		return wit.Ok(nil), nil
	})
	rm("headers", fn(own(t.fields), rself), func(c *Ctx, r *outRequest, a []any) (any, error) {
		// A child handle on the request's own headers: changes show.
		return c.newRes(t.fields, r.headers), nil
	})

	// request-options
	h.fn(iface, "[constructor]request-options", fn(own(t.reqOptions)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.newRes(t.reqOptions, &reqOptions{}), nil
	})
	optDur := option(wit.U64)
	for _, o := range []struct {
		name string
		get  func(*reqOptions) *wit.OptionValue
	}{
		{"connect-timeout", func(o *reqOptions) *wit.OptionValue { return &o.connect }},
		{"first-byte-timeout", func(o *reqOptions) *wit.OptionValue { return &o.firstByte }},
		{"between-bytes-timeout", func(o *reqOptions) *wit.OptionValue { return &o.betweenBytes }},
	} {
		h.method(iface, "request-options", o.name, fn(optDur, self(t.reqOptions)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
			ro, err := res[*reqOptions](c, a[0])
			if err != nil {
				return nil, err
			}
			return *o.get(ro), nil
		})
		h.method(iface, "request-options", "set-"+o.name, fn(unit, self(t.reqOptions), param("duration", optDur)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
			ro, err := res[*reqOptions](c, a[0])
			if err != nil {
				return nil, err
			}
			*o.get(ro) = a[1].(wit.OptionValue)
			return wit.Ok(nil), nil
		})
	}

	// outgoing-body
	h.method(iface, "outgoing-body", "write", fn(result(own(t.outputStream), nil), self(t.outBody)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		b, err := res[*outBody](c, a[0])
		if err != nil {
			return nil, err
		}
		if b.streamTaken {
			return wit.Err(nil), nil
		}
		b.streamTaken = true
		return wit.Ok(c.newRes(t.outputStream, &outputStream{s: b.p})), nil
	})
	h.fn(iface, "[static]outgoing-body.finish", fn(result(nil, t.httpErrorCode), param("this", own(t.outBody)), param("trailers", option(own(t.fields)))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		b, err := takeRes[*outBody](c, a[0])
		if err != nil {
			return nil, err
		}
		if tr := a[1].(wit.OptionValue); tr.Some {
			c.take(tr.Value.(wit.Resource).Rep) // trailers are not sent
		}
		b.p.closeWrite(nil)
		return wit.Ok(nil), nil
	})

	// future-incoming-response
	h.method(iface, "future-incoming-response", "subscribe", fn(own(t.pollable), self(t.futureInResponse)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		f, err := res[*futureResponse](c, a[0])
		if err != nil {
			return nil, err
		}
		return c.subscribe(t, f), nil
	})
	h.method(iface, "future-incoming-response", "get", fn(option(result(result(own(t.inResponse), t.httpErrorCode), nil)), self(t.futureInResponse)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		f, err := res[*futureResponse](c, a[0])
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		switch {
		case !f.done:
			return wit.None(), nil
		case f.taken:
			return wit.Some(wit.Err(nil)), nil
		}
		f.taken = true
		if f.resp == nil {
			return wit.Some(wit.Ok(wit.Err(f.errVal))), nil
		}
		return wit.Some(wit.Ok(wit.Ok(c.newRes(t.inResponse, f.resp)))), nil
	})

	// incoming-response, incoming-body, future-trailers
	h.method(iface, "incoming-response", "status", fn(wit.U16, self(t.inResponse)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		r, err := res[*inResponse](c, a[0])
		if err != nil {
			return nil, err
		}
		return r.status, nil
	})
	h.method(iface, "incoming-response", "headers", fn(own(t.fields), self(t.inResponse)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		r, err := res[*inResponse](c, a[0])
		if err != nil {
			return nil, err
		}
		return c.newRes(t.fields, r.headers), nil
	})
	h.method(iface, "incoming-response", "consume", fn(result(own(t.inBody), nil), self(t.inResponse)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		r, err := res[*inResponse](c, a[0])
		if err != nil {
			return nil, err
		}
		if r.consumed {
			return wit.Err(nil), nil
		}
		r.consumed = true
		return wit.Ok(c.newRes(t.inBody, &inBody{resp: r})), nil
	})
	h.method(iface, "incoming-body", "stream", fn(result(own(t.inputStream), nil), self(t.inBody)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		b, err := res[*inBody](c, a[0])
		if err != nil {
			return nil, err
		}
		if b.streamTaken {
			return wit.Err(nil), nil
		}
		b.streamTaken = true
		return wit.Ok(c.newRes(t.inputStream, &inputStream{s: &pipeIn{p: b.resp.body}})), nil
	})
	h.fn(iface, "[static]incoming-body.finish", fn(own(t.futureTrailers), param("this", own(t.inBody))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		if _, err := takeRes[*inBody](c, a[0]); err != nil {
			return nil, err
		}
		return c.newRes(t.futureTrailers, &futureTrailers{}), nil
	})
	h.method(iface, "future-trailers", "subscribe", fn(own(t.pollable), self(t.futureTrailers)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.subscribe(t, alwaysReady{}), nil
	})
	h.method(iface, "future-trailers", "get", fn(option(result(result(option(own(t.fields)), t.httpErrorCode), nil)), self(t.futureTrailers)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		f, err := res[*futureTrailers](c, a[0])
		if err != nil {
			return nil, err
		}
		if f.taken {
			return wit.Some(wit.Err(nil)), nil
		}
		f.taken = true
		return wit.Some(wit.Ok(wit.Ok(wit.None()))), nil
	})
	h.fn(iface, "http-error-code", fn(option(t.httpErrorCode), param("err", borrow(t.ioError))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		e, err := res[*ioError](c, a[0])
		if err != nil {
			return nil, err
		}
		if code, ok := httpErrValue(e.err); ok {
			return wit.Some(code), nil
		}
		return wit.None(), nil
	})

	h.registerHTTPServerSide()

	h.fn("wasi:http/outgoing-handler", "handle", fn(result(own(t.futureInResponse), t.httpErrorCode), param("request", own(t.outRequest)), param("options", option(own(t.reqOptions)))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		r, err := takeRes[*outRequest](c, a[0])
		if err != nil {
			return nil, err
		}
		opts := &reqOptions{}
		if o := a[1].(wit.OptionValue); o.Some {
			if opts, err = takeRes[*reqOptions](c, o.Value); err != nil {
				return nil, err
			}
		}
		f, errVal := c.startRequest(r, opts, h.pools.transport(c))
		if f == nil {
			return wit.Err(errVal), nil
		}
		return wit.Ok(c.newRes(t.futureInResponse, f)), nil
	})
}

// registerHTTPServerSide defines the incoming-request, outgoing-response
// and response-outparam methods. mur-go never calls a guest's
// incoming-handler, so guests can only reach them with no such resource in
// hand; they exist so that components importing all of wasi:http/types
// link, and they trap if ever reached.
func (h *host) registerHTTPServerSide() {
	t := h.t
	const iface = "wasi:http/types"
	unreachable := func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return nil, errors.New("wasi:http: incoming requests are not supported by this host")
	}
	unit := result(nil, nil)
	ir := self(t.inRequest)
	h.method(iface, "incoming-request", "method", fn(t.method, ir), unreachable)
	h.method(iface, "incoming-request", "path-with-query", fn(option(wit.String), ir), unreachable)
	h.method(iface, "incoming-request", "scheme", fn(option(t.scheme), ir), unreachable)
	h.method(iface, "incoming-request", "authority", fn(option(wit.String), ir), unreachable)
	h.method(iface, "incoming-request", "headers", fn(own(t.fields), ir), unreachable)
	h.method(iface, "incoming-request", "consume", fn(result(own(t.inBody), nil), ir), unreachable)
	h.fn(iface, "[constructor]outgoing-response", fn(own(t.outResponse), param("headers", own(t.fields))), unreachable)
	or := self(t.outResponse)
	h.method(iface, "outgoing-response", "status-code", fn(wit.U16, or), unreachable)
	h.method(iface, "outgoing-response", "set-status-code", fn(unit, or, param("status-code", wit.U16)), unreachable)
	h.method(iface, "outgoing-response", "headers", fn(own(t.fields), or), unreachable)
	h.method(iface, "outgoing-response", "body", fn(result(own(t.outBody), nil), or), unreachable)
	h.fn(iface, "[static]response-outparam.set", fn(nil, param("param", own(t.respOutparam)), param("response", result(own(t.outResponse), t.httpErrorCode))), unreachable)
	h.method(iface, "response-outparam", "send-informational", fn(result(nil, t.httpErrorCode), self(t.respOutparam), param("status", wit.U16), param("headers", own(t.fields))), unreachable)
}

var methodNames = [...]string{"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}

func httpErr(code uint32, payload any) wit.VariantValue {
	return wit.VariantValue{Case: code, Value: payload}
}

// startRequest checks the request against the network rules and, if
// allowed, starts it on a goroutine. A nil future comes with the error-code
// value to return.
func (c *Ctx) startRequest(r *outRequest, o *reqOptions, tr *http.Transport) (*futureResponse, any) {
	r.headers.immutable = true
	scheme := "http"
	if r.scheme.Some {
		sv := r.scheme.Value.(wit.VariantValue)
		switch sv.Case {
		case 0:
			scheme = "http"
		case 1:
			scheme = "https"
		default:
			scheme = strings.ToLower(sv.Value.(string))
		}
	}
	if !r.authority.Some || r.authority.Value.(string) == "" {
		return nil, httpErr(httpRequestDenied, nil) // no authority: nothing a rule can admit
	}
	authority := r.authority.Value.(string)
	if scheme != "http" && scheme != "https" {
		return nil, httpErr(httpRequestURIInvalid, nil)
	}
	u, err := url.Parse(scheme + "://" + authority + "/")
	if err != nil || u.Host != authority || u.User != nil {
		return nil, httpErr(httpRequestURIInvalid, nil)
	}
	port := defaultPort(scheme)
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return nil, httpErr(httpRequestURIInvalid, nil)
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
		return nil, httpErr(httpRequestDenied, nil)
	}
	method := "GET"
	if r.method.Case < uint32(len(methodNames)) {
		method = methodNames[r.method.Case]
	} else if s, ok := r.method.Value.(string); ok {
		method = s
	}
	path := "/"
	if r.path.Some {
		path = r.path.Value.(string)
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
	}
	target, err := url.Parse(scheme + "://" + authority + path)
	if err != nil {
		return nil, httpErr(httpRequestURIInvalid, nil)
	}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), storeEgressKey{}, c.egress))
	if d, ok := o.connect.Value.(uint64); o.connect.Some && ok {
		ctx = context.WithValue(ctx, connectTimeoutKey{}, time.Duration(d))
	}
	var body io.ReadCloser = http.NoBody
	if r.body != nil {
		body = r.body.p
	}
	req, err := http.NewRequestWithContext(ctx, method, target.String(), body)
	if err != nil {
		cancel()
		return nil, httpErr(httpRequestMethodInvalid, nil)
	}
	req.Host = authority
	for _, kv := range r.headers.list {
		req.Header.Add(kv[0].(string), string(kv[1].([]byte)))
	}
	if err := c.g.Credential.shape(req); err != nil {
		cancel()
		c.egress.log.Warn("wasi:http request refused", "url", target.Redacted(), "reason", err.Error())
		return nil, httpErr(httpRequestDenied, nil)
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
	return f, nil
}

type connectTimeoutKey struct{}

func (c *Ctx) runRequest(ctx context.Context, cancel context.CancelFunc, tr *http.Transport, req *http.Request, o *reqOptions, f *futureResponse) {
	var firstByte *time.Timer
	timedOut := make(chan uint32, 1)
	if d, ok := o.firstByte.Value.(uint64); o.firstByte.Some && ok {
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
			f.resolve(nil, httpErr(code, nil))
		default:
			v, _ := httpErrValue(c.g.Credential.redactErr(err))
			f.resolve(nil, v)
		}
		return
	}
	if err := c.g.Credential.decode(resp); err != nil {
		resp.Body.Close()
		cancel()
		coding := wit.None()
		var ce *ContentCodingError
		if errors.As(err, &ce) {
			coding = wit.Some(c.g.Credential.fragments().scrubString(ce.Coding))
		}
		c.egress.log.Warn("wasi:http response refused", "url", req.URL.Redacted(), "reason", c.g.Credential.redactErr(err).Error())
		f.resolve(nil, httpErr(httpResponseContentCoding, coding))
		return
	}
	c.g.Credential.redactHeader(resp.Header)
	r := &inResponse{status: uint16(resp.StatusCode), headers: fieldsFromHeader(resp.Header), body: newPipe(bodyBuffer), cancel: cancel}
	f.resolve(r, nil)
	var between time.Duration
	if d, ok := o.betweenBytes.Value.(uint64); o.betweenBytes.Some && ok {
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
				err = &httpError{code: httpConnectionReadTimeout, err: err}
			}
			dst.closeWrite(err)
			return
		}
	}
}

// httpError carries a chosen error-code through a stream error.
type httpError struct {
	code    uint32
	payload any // the case's payload, if it has one
	err     error
}

func (e *httpError) Error() string { return httpErrorNames[e.code] + ": " + e.err.Error() }
func (e *httpError) Unwrap() error { return e.err }

// httpErrValue maps a Go error from net/http to an error-code value; ok is
// false for errors that are not about HTTP (so http-error-code says none).
func httpErrValue(err error) (any, bool) {
	var he *httpError
	var denied *EgressDeniedError
	var dnsErr *net.DNSError
	var alert tls.AlertError
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var recErr tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.As(err, &he):
		return httpErr(he.code, he.payload), true
	case errors.As(err, &denied):
		return httpErr(httpRequestDenied, nil), true
	case errors.As(err, &dnsErr):
		if dnsErr.IsTimeout {
			return httpErr(httpDNSTimeout, nil), true
		}
		return httpErr(httpDNSError, []any{wit.Some(dnsErr.Err), wit.None()}), true
	case errors.Is(err, syscall.ECONNREFUSED):
		return httpErr(httpConnectionRefused, nil), true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return httpErr(httpConnectionTerminated, nil), true
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return httpErr(httpDestinationUnavailable, nil), true
	case errors.As(err, &alert):
		return httpErr(httpTLSAlertReceived, []any{wit.Some(uint8(alert)), wit.Some(alert.Error())}), true
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalidCert):
		return httpErr(httpTLSCertificateError, nil), true
	case errors.As(err, &recErr):
		return httpErr(httpTLSProtocolError, nil), true
	case errors.Is(err, io.ErrUnexpectedEOF):
		return httpErr(httpResponseIncomplete, nil), true
	case errors.As(err, &netErr) && netErr.Timeout():
		return httpErr(httpConnectionTimeout, nil), true
	case errors.Is(err, io.EOF):
		return httpErr(httpResponseIncomplete, nil), true
	}
	if _, ok := fsCode(err); ok {
		return nil, false
	}
	return httpErr(httpInternalError, wit.Some(err.Error())), true
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
