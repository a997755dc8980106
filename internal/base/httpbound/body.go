package httpbound

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"time"
)

// Body returns next behind the body bounds: it reads the request's whole
// body, within BodyTimeout and its share of memory, before next runs, and
// hands next the bytes. What a client sends slowly therefore waits here,
// bounded, and never in a decoder that would keep growing its buffer.
// The read deadline covers the body alone: it is lifted once the body is
// in, so a response that streams for hours is not cut off, and a request
// without a body gets none (net/http already watches such a connection
// for the client going away, and a deadline passing under that watch
// cancels the request: golang/go#70834). A refused request is answered
// with a JSON {"error": …} and its connection closed.
func (b *Bounds) Body(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		// Also on refusal the deadline stays: net/http may still read
		// what is left of a small body after the reply.
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(b.l.BodyTimeout)); err != nil {
			refuse(w, http.StatusInternalServerError, "the server cannot bound how long this request's body takes: "+err.Error())
			return
		}
		// While its body arrives the connection waits on its client, and
		// Listener may close it to make room.
		markConn(r, false)
		body, status, msg := b.read(r)
		if status != 0 {
			b.bodyNotice.warn(b.log, "refusing a request body", "client", r.RemoteAddr, "status", status, "reason", msg)
			refuse(w, status, msg)
			return
		}
		defer body.release()
		if err := rc.SetReadDeadline(time.Time{}); err != nil {
			refuse(w, http.StatusInternalServerError, "lifting the body's read deadline: "+err.Error())
			return
		}
		markConn(r, true)
		r.Body = body
		next.ServeHTTP(w, r)
	})
}

// read takes r's body whole; a refusal is a status and the reason.
func (b *Bounds) read(r *http.Request) (*heldBody, int, string) {
	h := &heldBody{b: b}
	if n := r.ContentLength; n >= 0 {
		if n > b.l.MaxBody {
			return nil, http.StatusRequestEntityTooLarge, tooLarge(n, b.l.MaxBody)
		}
		if !h.reserve(n) {
			return nil, http.StatusServiceUnavailable, busy
		}
		buf := make([]byte, n)
		_, err := io.ReadFull(r.Body, buf)
		if err == nil {
			// net/http's body says EOF at its last byte, which starts its
			// watch for the client going away; read it here.
			var one [1]byte
			_, err = r.Body.Read(one[:])
		}
		if err != nil && err != io.EOF {
			h.release()
			status, msg := b.failed(err)
			return nil, status, msg
		}
		h.rd = bytes.NewReader(buf)
		return h, 0, ""
	}
	// Sent in chunks, the size is known only at the end: the buffer grows
	// by doubling and reserves each size before it takes it.
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			size := min(2*int64(cap(buf)), b.l.MaxBody+1)
			if !h.reserve(size) {
				h.release()
				return nil, http.StatusServiceUnavailable, busy
			}
			grown := make([]byte, len(buf), size)
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > b.l.MaxBody {
			h.release()
			return nil, http.StatusRequestEntityTooLarge, tooLarge(int64(len(buf)), b.l.MaxBody)
		}
		if err == io.EOF {
			h.rd = bytes.NewReader(buf)
			return h, 0, ""
		}
		if err != nil {
			h.release()
			status, msg := b.failed(err)
			return nil, status, msg
		}
	}
}

const busy = "the server is receiving too many large request bodies at once; retry shortly"

func tooLarge(n, limit int64) string {
	return fmt.Sprintf("the request body is %d bytes or more; at most %d are accepted", n, limit)
}

// failed says why reading a body failed.
func (b *Bounds) failed(err error) (int, string) {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return http.StatusRequestTimeout, "the request body did not arrive within " + b.l.BodyTimeout.String()
	}
	return http.StatusBadRequest, "reading the request body: " + err.Error()
}

// refuse answers a request that will not be served, and closes its
// connection: what the client still sends is not read.
func refuse(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Connection", "close")
	h.Set("Content-Type", "application/json")
	if status == http.StatusServiceUnavailable {
		h.Set("Retry-After", "1")
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// heldBody is a body read whole. Its share of the budget goes back as soon
// as the handler has read every byte (or closes it, or returns): from then
// on the request holds what the handler decoded, no longer the body.
type heldBody struct {
	b        *Bounds
	rd       *bytes.Reader // nil once every byte was read
	reserved atomic.Int64
}

// reserve lets the body hold size bytes: up to SmallBody without the
// budget, else all of them from it.
func (h *heldBody) reserve(size int64) bool {
	have := h.reserved.Load()
	if size <= h.b.l.SmallBody || size <= have {
		return true
	}
	need := size - have
	for {
		free := h.b.budget.Load()
		if free < need {
			return false
		}
		if h.b.budget.CompareAndSwap(free, free-need) {
			h.reserved.Add(need)
			return true
		}
	}
}

func (h *heldBody) release() {
	if n := h.reserved.Swap(0); n > 0 {
		h.b.budget.Add(n)
	}
}

func (h *heldBody) Read(p []byte) (int, error) {
	if h.rd == nil {
		return 0, io.EOF
	}
	n, err := h.rd.Read(p)
	if h.rd.Len() == 0 {
		h.rd = nil
		h.release()
	}
	return n, err
}

func (h *heldBody) Close() error {
	h.rd = nil
	h.release()
	return nil
}
