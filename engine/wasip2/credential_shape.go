package wasip2

import (
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// A store that holds a credential reads every response as the host
// shaped it: the host, not the guest, chooses how each response may be
// transformed, so that the bytes it redacts are the bytes the guest
// gets. Redaction can only match what it can read; a response the guest
// had encoded (gzip, br, …), cut to a range, or framed in a protocol the
// host does not parse (an upgraded connection) carries the key in a form
// no matcher sees. So on every request of such a store (every origin,
// not only the credential's: a provider may serve what it was sent from
// another origin of its own):
//
//   - the guest's Accept-Encoding is replaced by the host's own
//     (hostEncoding); the response is decoded by the host (gzip, deflate,
//     stacked up to maxCodings) and one carrying any other content
//     coding is refused with HTTP-response-content-coding, its bytes
//     never reaching the guest;
//   - a request asking for part of a representation (Range, If-Range) or
//     for a tunnel (CONNECT) is refused with HTTP-request-denied: what it
//     returns cannot be redacted whole.
//
// Transfer framing is the host's already: no guest may set TE,
// Transfer-Encoding, Connection or Upgrade (forbiddenHeaders), and
// net/http undoes chunked framing before the body is redacted. Trailers
// and 1xx responses never reach a guest.
//
// The guest always receives the identity coding, which every
// Accept-Encoding admits, so a client that asked for gzip still reads its
// response correctly.

// hostEncoding is the Accept-Encoding the host sends for a credentialed
// store: what Go's own transport asks for.
const hostEncoding = "gzip"

// maxCodings bounds the content codings of one response the host decodes.
const maxCodings = 2

// RefusedRequestError says why a credentialed store's request was not
// sent.
type RefusedRequestError struct{ Reason string }

func (e *RefusedRequestError) Error() string {
	return "a store holding a credential may not send this request: " + e.Reason
}

// shape makes req a request the host can redact the answer to, or says
// why it cannot be sent. It runs on every request of a store holding a
// credential.
func (c *Credential) shape(req *http.Request) error {
	if c.fragments() == nil {
		return nil
	}
	if req.Method == http.MethodConnect {
		return &RefusedRequestError{Reason: "CONNECT opens a tunnel the host does not read"}
	}
	for _, h := range [...]struct{ name, why string }{
		{"Range", "it asks for part of a response, which cannot be redacted whole"},
		{"If-Range", "it asks for part of a response, which cannot be redacted whole"},
	} {
		if _, ok := req.Header[h.name]; ok {
			return &RefusedRequestError{Reason: h.name + ": " + h.why}
		}
	}
	req.Header.Set("Accept-Encoding", hostEncoding)
	return nil
}

// ContentCodingError is a response whose content coding the host did not
// decode; its body is never given to the guest.
type ContentCodingError struct{ Coding string }

func (e *ContentCodingError) Error() string {
	return fmt.Sprintf("the response's content coding %q is not one the host decodes (gzip, deflate)", e.Coding)
}

// decode replaces resp's body by its decoded content and drops the
// headers that described the encoded one, or refuses a coding it cannot
// decode. It runs on every response of a store holding a credential.
func (c *Credential) decode(resp *http.Response) error {
	if c.fragments() == nil {
		return nil
	}
	codings, err := contentCodings(resp.Header.Values("Content-Encoding"))
	if err != nil {
		return err
	}
	if len(codings) == 0 {
		return nil
	}
	// The last coding listed was applied last, so it is undone first.
	var body io.ReadCloser = resp.Body
	for i := len(codings) - 1; i >= 0; i-- {
		body = &decoder{src: body, coding: codings[i], closer: resp.Body}
	}
	resp.Body = body
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
	return nil
}

// contentCodings parses Content-Encoding's values (one header line or
// several, each a comma-separated list) into the codings to undo,
// identity dropped; any coding the host does not decode is an error.
func contentCodings(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, tok := range strings.Split(v, ",") {
			tok = strings.ToLower(strings.TrimSpace(tok))
			switch tok {
			case "", "identity":
				continue
			case "gzip", "x-gzip", "deflate":
			default:
				return nil, &ContentCodingError{Coding: tok}
			}
			if len(out) == maxCodings {
				return nil, &ContentCodingError{Coding: strings.Join(values, ", ")}
			}
			out = append(out, tok)
		}
	}
	return out, nil
}

// decoder undoes one content coding, starting its reader at the first
// Read (the header it parses arrives with the body, which copyBody reads
// off the request's goroutine). An empty body, as HEAD, 204 and 304
// answers have, decodes to nothing.
type decoder struct {
	src    io.Reader
	coding string
	closer io.Closer // the response body, closed once for the chain
	r      io.Reader
}

func (d *decoder) Read(p []byte) (int, error) {
	if d.r == nil {
		var err error
		switch d.coding {
		case "deflate":
			d.r, err = zlib.NewReader(d.src)
		default:
			d.r, err = gzip.NewReader(d.src)
		}
		if err != nil {
			return 0, codingErr(err)
		}
	}
	n, err := d.r.Read(p)
	return n, codingErr(err)
}

// codingErr marks an error of the coded data itself as
// HTTP-response-content-coding; the body's own errors (a broken or cut
// connection, the end) pass as they are.
func codingErr(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.Is(err, zlib.ErrHeader),
		errors.Is(err, zlib.ErrChecksum), errors.Is(err, zlib.ErrDictionary), errors.As(err, &corrupt):
		return &httpError{code: httpErr(httpResponseContentCoding), err: err}
	}
	return err
}

func (d *decoder) Close() error { return d.closer.Close() }
