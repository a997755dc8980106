package wasip2

import (
	"context"
	"errors"
	"strings"

	"github.com/mur-go/mur/engine/wit"
)

const httpIface = "wasi:http/types"

func (h *host) registerHTTP() {
	t := h.t
	for _, r := range []*wit.ResourceType{t.fields, t.inRequest, t.outRequest, t.reqOptions, t.respOutparam,
		t.inResponse, t.inBody, t.futureTrailers, t.outResponse, t.outBody, t.futureInResponse} {
		h.resource(httpIface, r)
	}
	h.uses(httpIface, t.inputStream, t.outputStream, t.pollable)
	h.resourceAs(httpIface, "io-error", t.ioError)
	h.resourceAs(httpIface, "headers", t.fields)
	h.resourceAs(httpIface, "trailers", t.fields)
	h.registerFields()
	h.registerOutgoingRequest()
	h.registerRequestOptions()
	h.registerResponse()
	h.registerHTTPServerSide()
	def1(h, httpIface, "http-error-code", fn(option(t.httpErrorCode), param("err", borrow(t.ioError))), func(ctx context.Context, c *Ctx, e *ioError) (opt[httpErrorCode], error) {
		if code, ok := httpErrValue(e.err); ok {
			return some(code), nil
		}
		return none[httpErrorCode](), nil
	})

	const handler = "wasi:http/outgoing-handler"
	h.uses(handler, t.outRequest, t.reqOptions, t.futureInResponse)
	def2(h, handler, "handle", fn(result(own(t.futureInResponse), t.httpErrorCode), param("request", own(t.outRequest)), param("options", option(own(t.reqOptions)))), func(ctx context.Context, c *Ctx, r *outRequest, o opt[*reqOptions]) (res[*futureResponse, httpErrorCode], error) {
		opts, ok := o.get()
		if !ok {
			opts = &reqOptions{}
		}
		f, refused := c.startRequest(r, opts, h.pools.transport(c))
		if f == nil {
			return errv[*futureResponse](refused), nil
		}
		return okv[httpErrorCode](f), nil
	})
}

func (h *host) registerFields() {
	t := h.t
	hdrRes := func(ok wit.Type) *wit.Result { return result(ok, t.headerError) }
	fself, name := self(t.fields), param("name", wit.String)
	fm := func(name string) string { return method("fields", name) }
	def0(h, httpIface, "[constructor]fields", fn(own(t.fields)), func(ctx context.Context, c *Ctx) (*fields, error) {
		return &fields{}, nil
	})
	def1(h, httpIface, "[static]fields.from-list", fn(hdrRes(own(t.fields)), param("entries", list(tuple(wit.String, list(wit.U8))))), func(ctx context.Context, c *Ctx, entries listOf[fieldEntry]) (res[*fields, headerError], error) {
		f := &fields{}
		for _, e := range entries {
			if refused, ok := f.check(e.Name, e.Value); !ok {
				return errv[*fields](refused), nil
			}
			f.list = append(f.list, e)
		}
		return okv[headerError](f), nil
	})
	def2(h, httpIface, fm("get"), fn(list(list(wit.U8)), fself, name), func(ctx context.Context, c *Ctx, f *fields, name string) (listOf[[]byte], error) {
		out := listOf[[]byte]{}
		for _, kv := range f.list {
			if strings.EqualFold(kv.Name, name) {
				out = append(out, kv.Value)
			}
		}
		return out, nil
	})
	def2(h, httpIface, fm("has"), fn(wit.Bool, fself, name), func(ctx context.Context, c *Ctx, f *fields, name string) (bool, error) {
		for _, kv := range f.list {
			if strings.EqualFold(kv.Name, name) {
				return true, nil
			}
		}
		return false, nil
	})
	def3(h, httpIface, fm("set"), fn(hdrRes(nil), fself, name, param("value", list(list(wit.U8)))), func(ctx context.Context, c *Ctx, f *fields, name string, vals listOf[[]byte]) (res[unit, headerError], error) {
		if refused, ok := f.check(name, vals...); !ok {
			return errv[unit](refused), nil
		}
		f.del(name)
		for _, v := range vals {
			f.list = append(f.list, fieldEntry{Name: name, Value: v})
		}
		return okv[headerError](unit{}), nil
	})
	def2(h, httpIface, fm("delete"), fn(hdrRes(nil), fself, name), func(ctx context.Context, c *Ctx, f *fields, name string) (res[unit, headerError], error) {
		if refused, ok := f.check(name); !ok {
			return errv[unit](refused), nil
		}
		f.del(name)
		return okv[headerError](unit{}), nil
	})
	def3(h, httpIface, fm("append"), fn(hdrRes(nil), fself, name, param("value", list(wit.U8))), func(ctx context.Context, c *Ctx, f *fields, name string, val []byte) (res[unit, headerError], error) {
		if refused, ok := f.check(name, val); !ok {
			return errv[unit](refused), nil
		}
		f.list = append(f.list, fieldEntry{Name: name, Value: val})
		return okv[headerError](unit{}), nil
	})
	def1(h, httpIface, fm("entries"), fn(list(tuple(wit.String, list(wit.U8))), fself), func(ctx context.Context, c *Ctx, f *fields) (listOf[fieldEntry], error) {
		return f.list, nil
	})
	def1(h, httpIface, fm("clone"), fn(own(t.fields), fself), func(ctx context.Context, c *Ctx, f *fields) (*fields, error) {
		return f.clone(), nil
	})
}

func (h *host) registerOutgoingRequest() {
	t := h.t
	unitRes, optStr, rself := result(nil, nil), option(wit.String), self(t.outRequest)
	rm := func(name string) string { return method("outgoing-request", name) }
	def1(h, httpIface, "[constructor]outgoing-request", fn(own(t.outRequest), param("headers", own(t.fields))), func(ctx context.Context, c *Ctx, f *fields) (*outRequest, error) {
		return &outRequest{headers: f}, nil
	})
	def1(h, httpIface, rm("body"), fn(result(own(t.outBody), nil), rself), func(ctx context.Context, c *Ctx, r *outRequest) (res[*outBody, unit], error) {
		if r.bodyTaken {
			return errv[*outBody](unit{}), nil
		}
		r.bodyTaken = true
		r.body = &outBody{p: newPipe(bodyBuffer)}
		return okv[unit](r.body), nil
	})
	def1(h, httpIface, rm("method"), fn(t.method, rself), func(ctx context.Context, c *Ctx, r *outRequest) (httpMethod, error) {
		return r.method, nil
	})
	def2(h, httpIface, rm("set-method"), fn(unitRes, rself, param("method", t.method)), func(ctx context.Context, c *Ctx, r *outRequest, m httpMethod) (res[unit, unit], error) {
		if m.Case == methodOther && !validHeaderName(m.Other) {
			return errv[unit](unit{}), nil
		}
		r.method = m
		return okv[unit](unit{}), nil
	})
	def1(h, httpIface, rm("path-with-query"), fn(optStr, rself), func(ctx context.Context, c *Ctx, r *outRequest) (opt[string], error) {
		return r.path, nil
	})
	def2(h, httpIface, rm("set-path-with-query"), fn(unitRes, rself, param("path-with-query", optStr)), func(ctx context.Context, c *Ctx, r *outRequest, p opt[string]) (res[unit, unit], error) {
		r.path = p
		return okv[unit](unit{}), nil
	})
	def1(h, httpIface, rm("scheme"), fn(option(t.scheme), rself), func(ctx context.Context, c *Ctx, r *outRequest) (opt[httpScheme], error) {
		return r.scheme, nil
	})
	def2(h, httpIface, rm("set-scheme"), fn(unitRes, rself, param("scheme", option(t.scheme))), func(ctx context.Context, c *Ctx, r *outRequest, s opt[httpScheme]) (res[unit, unit], error) {
		r.scheme = s
		return okv[unit](unit{}), nil
	})
	def1(h, httpIface, rm("authority"), fn(optStr, rself), func(ctx context.Context, c *Ctx, r *outRequest) (opt[string], error) {
		return r.authority, nil
	})
	def2(h, httpIface, rm("set-authority"), fn(unitRes, rself, param("authority", optStr)), func(ctx context.Context, c *Ctx, r *outRequest, a opt[string]) (res[unit, unit], error) {
		r.authority = a
		return okv[unit](unit{}), nil
	})
	def1(h, httpIface, rm("headers"), fn(own(t.fields), rself), func(ctx context.Context, c *Ctx, r *outRequest) (*fields, error) {
		// A child handle on the request's own headers: changes show.
		return r.headers, nil
	})
	def1(h, httpIface, method("outgoing-body", "write"), fn(result(own(t.outputStream), nil), self(t.outBody)), func(ctx context.Context, c *Ctx, b *outBody) (res[*outputStream, unit], error) {
		if b.streamTaken {
			return errv[*outputStream](unit{}), nil
		}
		b.streamTaken = true
		return okv[unit](&outputStream{s: b.p}), nil
	})
	def2(h, httpIface, "[static]outgoing-body.finish", fn(result(nil, t.httpErrorCode), param("this", own(t.outBody)), param("trailers", option(own(t.fields)))), func(ctx context.Context, c *Ctx, b *outBody, _ opt[*fields]) (res[unit, httpErrorCode], error) {
		// Trailers are not sent; taking them from the table was all.
		b.p.closeWrite(nil)
		return okv[httpErrorCode](unit{}), nil
	})
}

func (h *host) registerRequestOptions() {
	t := h.t
	def0(h, httpIface, "[constructor]request-options", fn(own(t.reqOptions)), func(ctx context.Context, c *Ctx) (*reqOptions, error) {
		return &reqOptions{}, nil
	})
	optDur, oself := option(wit.U64), self(t.reqOptions)
	for _, o := range []struct {
		name string
		get  func(*reqOptions) *opt[uint64]
	}{
		{"connect-timeout", func(o *reqOptions) *opt[uint64] { return &o.connect }},
		{"first-byte-timeout", func(o *reqOptions) *opt[uint64] { return &o.firstByte }},
		{"between-bytes-timeout", func(o *reqOptions) *opt[uint64] { return &o.betweenBytes }},
	} {
		def1(h, httpIface, method("request-options", o.name), fn(optDur, oself), func(ctx context.Context, c *Ctx, ro *reqOptions) (opt[uint64], error) {
			return *o.get(ro), nil
		})
		def2(h, httpIface, method("request-options", "set-"+o.name), fn(result(nil, nil), oself, param("duration", optDur)), func(ctx context.Context, c *Ctx, ro *reqOptions, d opt[uint64]) (res[unit, unit], error) {
			*o.get(ro) = d
			return okv[unit](unit{}), nil
		})
	}
}

// responseOutcome is what future-incoming-response.get returns once the
// response is there: option<result<result<own<incoming-response>,
// error-code>>>, the outer result failing on a second get.
type responseOutcome = opt[res[res[*inResponse, httpErrorCode], unit]]

// trailersOutcome is future-trailers.get's
// option<result<result<option<own<trailers>>, error-code>>>.
type trailersOutcome = opt[res[res[opt[*fields], httpErrorCode], unit]]

func (h *host) registerResponse() {
	t := h.t
	def1(h, httpIface, method("future-incoming-response", "subscribe"), fn(own(t.pollable), self(t.futureInResponse)), func(ctx context.Context, c *Ctx, f *futureResponse) (*pollable, error) {
		return &pollable{src: f}, nil
	})
	def1(h, httpIface, method("future-incoming-response", "get"), fn(option(result(result(own(t.inResponse), t.httpErrorCode), nil)), self(t.futureInResponse)), func(ctx context.Context, c *Ctx, f *futureResponse) (responseOutcome, error) {
		return f.get(), nil
	})
	def1(h, httpIface, method("incoming-response", "status"), fn(wit.U16, self(t.inResponse)), func(ctx context.Context, c *Ctx, r *inResponse) (uint16, error) {
		return r.status, nil
	})
	def1(h, httpIface, method("incoming-response", "headers"), fn(own(t.fields), self(t.inResponse)), func(ctx context.Context, c *Ctx, r *inResponse) (*fields, error) {
		return r.headers, nil
	})
	def1(h, httpIface, method("incoming-response", "consume"), fn(result(own(t.inBody), nil), self(t.inResponse)), func(ctx context.Context, c *Ctx, r *inResponse) (res[*inBody, unit], error) {
		if r.consumed {
			return errv[*inBody](unit{}), nil
		}
		r.consumed = true
		return okv[unit](&inBody{resp: r}), nil
	})
	def1(h, httpIface, method("incoming-body", "stream"), fn(result(own(t.inputStream), nil), self(t.inBody)), func(ctx context.Context, c *Ctx, b *inBody) (res[*inputStream, unit], error) {
		if b.streamTaken {
			return errv[*inputStream](unit{}), nil
		}
		b.streamTaken = true
		return okv[unit](&inputStream{s: &pipeIn{p: b.resp.body}}), nil
	})
	def1(h, httpIface, "[static]incoming-body.finish", fn(own(t.futureTrailers), param("this", own(t.inBody))), func(ctx context.Context, c *Ctx, _ *inBody) (*futureTrailers, error) {
		return &futureTrailers{}, nil
	})
	def1(h, httpIface, method("future-trailers", "subscribe"), fn(own(t.pollable), self(t.futureTrailers)), func(ctx context.Context, c *Ctx, _ *futureTrailers) (*pollable, error) {
		return &pollable{src: alwaysReady{}}, nil
	})
	def1(h, httpIface, method("future-trailers", "get"), fn(option(result(result(option(own(t.fields)), t.httpErrorCode), nil)), self(t.futureTrailers)), func(ctx context.Context, c *Ctx, f *futureTrailers) (trailersOutcome, error) {
		if f.taken {
			return some(errv[res[opt[*fields], httpErrorCode]](unit{})), nil
		}
		f.taken = true
		return some(okv[unit](okv[httpErrorCode](none[*fields]()))), nil
	})
}

// registerHTTPServerSide defines the incoming-request, outgoing-response
// and response-outparam methods. mur-go never calls a guest's
// incoming-handler, so guests can only reach them with no such resource in
// hand; they exist so that components importing all of wasi:http/types
// link, and they trap if ever reached.
func (h *host) registerHTTPServerSide() {
	t := h.t
	errServer := errors.New("wasi:http: incoming requests are not supported by this host")
	trap := func(name string, typ *wit.Func) { unsupported(h, httpIface, name, typ, errServer) }
	unitRes := result(nil, nil)
	ir := self(t.inRequest)
	trap(method("incoming-request", "method"), fn(t.method, ir))
	trap(method("incoming-request", "path-with-query"), fn(option(wit.String), ir))
	trap(method("incoming-request", "scheme"), fn(option(t.scheme), ir))
	trap(method("incoming-request", "authority"), fn(option(wit.String), ir))
	trap(method("incoming-request", "headers"), fn(own(t.fields), ir))
	trap(method("incoming-request", "consume"), fn(result(own(t.inBody), nil), ir))
	trap("[constructor]outgoing-response", fn(own(t.outResponse), param("headers", own(t.fields))))
	or := self(t.outResponse)
	trap(method("outgoing-response", "status-code"), fn(wit.U16, or))
	trap(method("outgoing-response", "set-status-code"), fn(unitRes, or, param("status-code", wit.U16)))
	trap(method("outgoing-response", "headers"), fn(own(t.fields), or))
	trap(method("outgoing-response", "body"), fn(result(own(t.outBody), nil), or))
	trap("[static]response-outparam.set", fn(nil, param("param", own(t.respOutparam)), param("response", result(own(t.outResponse), t.httpErrorCode))))
	trap(method("response-outparam", "send-informational"), fn(result(nil, t.httpErrorCode), self(t.respOutparam), param("status", wit.U16), param("headers", own(t.fields))))
}
