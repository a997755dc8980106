//go:build wasip1

package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/mur-go/mur/guests/go/wasihttp"
)

// prober sends the probes to one origin. Every request carries the key
// placeholder in x-api-key, so the host swaps the key in on the
// credential's origin; the credential header it sets itself.
type prober struct {
	d   wasihttp.Doer
	key string
}

// get sends GET base+path with hdr and returns the status, every response
// header value and the body as the guest decodes it (its own decoders for
// each coding the response names: gzip and deflate as HTTP defines them,
// br and zstd as the test endpoint labels its stand-ins), or the error.
func (p *prober) get(url string, hdr ...[2]string) (int, string, []byte, error) {
	resp, err := p.d.Do(&wasihttp.Request{Method: "GET", URL: url,
		Header: append([][2]string{{"x-api-key", p.key}}, hdr...)})
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	var hs []string
	for name, vs := range resp.Header {
		hs = append(hs, name+"="+strings.Join(vs, ","))
	}
	sort.Strings(hs)
	body, rerr := io.ReadAll(resp.Body)
	codings := strings.Split(strings.Join(resp.Header["content-encoding"], ","), ",")
	for i := len(codings) - 1; i >= 0 && rerr == nil; i-- {
		body, rerr = undo(strings.TrimSpace(codings[i]), body)
	}
	return resp.Status, strings.Join(hs, " "), body, rerr
}

func undo(coding string, b []byte) ([]byte, error) {
	switch coding {
	case "gzip", "x-gzip":
		r, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return b, err
		}
		return io.ReadAll(r)
	case "deflate":
		r, err := zlib.NewReader(bytes.NewReader(b))
		if err != nil {
			return b, err
		}
		return io.ReadAll(r)
	case "br":
		return base64.StdEncoding.DecodeString(string(b))
	case "zstd":
		return hex.DecodeString(string(b))
	}
	return b, nil
}

// line records one probe: its outcome and what came back.
func line(w io.Writer, name string, status int, hdr string, body []byte, err error) {
	e := "none"
	if err != nil {
		e = err.Error()
	}
	fmt.Fprintf(w, "%s status=%d err=%s hdr=[%s] body=[%s]\n", name, status, e, hdr, body)
}

// all runs every probe against base and writes what each found to w.
func (p *prober) all(w io.Writer, base string) {
	echo := base + "/echo"
	fmt.Fprintf(w, "origin %s\n", base)
	status, hdr, body, err := p.get(echo)
	line(w, "plain", status, hdr, body, err)
	full := len(body)

	// Content codings the guest asks for, and ones the server sends
	// unasked (?ce=), stacked in one header or over two lines (/).
	for _, ae := range []string{"gzip", "deflate", "br", "zstd", "gzip, br"} {
		status, hdr, body, err := p.get(echo, [2]string{"accept-encoding", ae})
		line(w, "accept-encoding:"+ae, status, hdr, body, err)
	}
	for _, ce := range []string{"gzip", "deflate", "br", "zstd", "deflate,gzip", "gzip,br", "gzip/br"} {
		status, hdr, body, err := p.get(echo+"?ce="+ce, [2]string{"accept-encoding", "identity"})
		line(w, "content-encoding:"+ce, status, hdr, body, err)
	}
	status, hdr, body, err = p.get(echo, [2]string{"te", "gzip, trailers"})
	line(w, "te", status, hdr, body, err)

	// Part of the representation: 4-byte ranges reassembled, with and
	// without If-Range.
	for _, ifRange := range []bool{false, true} {
		var got []byte
		var last error
		status = 0
		for off := 0; off < max(full, 192); off += 4 {
			h := [][2]string{{"range", "bytes=" + strconv.Itoa(off) + "-" + strconv.Itoa(off+3)}}
			if ifRange {
				h = append(h, [2]string{"if-range", `"e1"`})
			}
			s, _, piece, err := p.get(echo, h...)
			if err != nil || s != 206 {
				status, last = s, err
				break
			}
			got = append(got, piece...)
		}
		line(w, fmt.Sprintf("range(if-range=%v)", ifRange), status, "", got, last)
	}

	// An echo the server cuts after n bytes: the last byte of each cut
	// reassembles the echo when nothing hides the cut-off key.
	var cut []byte
	for n := 1; n <= max(full, 192); n++ {
		_, _, b, err := p.get(echo + "?trunc=" + strconv.Itoa(n))
		if err != nil {
			break
		}
		if len(b) == n {
			cut = append(cut, b[n-1])
		} else {
			cut = append(cut, '?')
		}
	}
	line(w, "truncated", 0, "", cut, nil)

	// The key split across chunked frames at every offset, and one byte a
	// frame.
	var frames []byte
	for k := 0; k <= max(full, 192); k++ {
		_, _, b, err := p.get(echo + "?chunk=" + strconv.Itoa(k))
		if err != nil {
			frames = append(frames, err.Error()...)
			break
		}
		frames = append(append(frames, b...), '\n')
	}
	status, hdr, body, err = p.get(echo + "?chunk=each")
	line(w, "chunked", status, hdr, append(frames, body...), err)

	// The key split over response header lines.
	status, hdr, body, err = p.get(echo + "?hsplit=1")
	line(w, "header-split", status, hdr, body, err)

	// Another protocol on the same connection, framing the key in pieces.
	status, hdr, body, err = p.get(echo, [2]string{"connection", "Upgrade"}, [2]string{"upgrade", "x-echo"})
	line(w, "upgrade", status, hdr, bytes.ReplaceAll(body, []byte("|"), nil), err)
}
