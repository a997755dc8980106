package wasip2

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestCredentialShape(t *testing.T) {
	c := &Credential{Secret: testSecret}
	for _, tc := range []struct {
		name    string
		method  string
		in      http.Header
		refused string // a word of the refusal, "" when sent
	}{
		{"plain", "POST", http.Header{"Content-Type": {"application/json"}}, ""},
		{"guest gzip", "GET", http.Header{"Accept-Encoding": {"gzip"}}, ""},
		{"guest br, zstd", "GET", http.Header{"Accept-Encoding": {"br, zstd", "deflate"}}, ""},
		{"guest identity", "GET", http.Header{"Accept-Encoding": {"identity"}}, ""},
		{"range", "GET", http.Header{"Range": {"bytes=0-4"}}, "Range"},
		{"if-range", "GET", http.Header{"If-Range": {`"e1"`}}, "If-Range"},
		{"empty range", "GET", http.Header{"Range": {""}}, "Range"},
		{"connect", "CONNECT", http.Header{}, "CONNECT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := &http.Request{Method: tc.method, Header: tc.in.Clone()}
			err := c.shape(req)
			var refused *RefusedRequestError
			switch {
			case tc.refused != "":
				if !errors.As(err, &refused) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("got %v, want a refusal naming %s", err, tc.refused)
				}
			case err != nil:
				t.Fatalf("refused: %v", err)
			case strings.Join(req.Header.Values("Accept-Encoding"), ",") != hostEncoding:
				t.Fatalf("headers %v: want Accept-Encoding %q only", req.Header, hostEncoding)
			}
		})
	}
	// A store with no credential sends what its guest asked for.
	req := &http.Request{Method: "GET", Header: http.Header{"Range": {"bytes=0-1"}, "Accept-Encoding": {"br"}}}
	if err := (*Credential)(nil).shape(req); err != nil || req.Header.Get("Accept-Encoding") != "br" {
		t.Fatalf("no credential: %v %v", err, req.Header)
	}
}

func TestContentCodings(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string // the codings joined by "+", or "error"
	}{
		{nil, ""},
		{[]string{""}, ""},
		{[]string{"identity"}, ""},
		{[]string{"gzip"}, "gzip"},
		{[]string{"GZip"}, "gzip"},
		{[]string{"x-gzip"}, "x-gzip"},
		{[]string{"deflate"}, "deflate"},
		{[]string{"gzip, deflate"}, "gzip+deflate"},
		{[]string{"gzip", "deflate"}, "gzip+deflate"},
		{[]string{"identity, gzip"}, "gzip"},
		{[]string{"gzip, gzip, gzip"}, "error"},
		{[]string{"br"}, "error"},
		{[]string{"zstd"}, "error"},
		{[]string{"compress"}, "error"},
		{[]string{"gzip", "br"}, "error"},
		{[]string{"gzip;q=1"}, "error"},
		{[]string{"x-made-up"}, "error"},
	} {
		got, err := contentCodings(tc.in)
		s := strings.Join(got, "+")
		if err != nil {
			s = "error"
			var ce *ContentCodingError
			if !errors.As(err, &ce) {
				t.Errorf("%q: error %v is not a ContentCodingError", tc.in, err)
			}
		}
		if s != tc.want {
			t.Errorf("contentCodings(%q) = %q, want %q", tc.in, s, tc.want)
		}
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func zl(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestCredentialDecode: what a credentialed store's guest reads of a
// response in each content coding: decoded and redacted, or an error
// and none of the bytes.
func TestCredentialDecode(t *testing.T) {
	c := &Credential{Secret: testSecret}
	echo := []byte("auth=Bearer " + testSecret + "\n")
	want := "auth=Bearer [REDACTED]\n"
	for _, tc := range []struct {
		name   string
		coding []string
		body   []byte
		want   string
		code   uint32 // the error-code the guest gets, 0 for none
		onRead bool   // the error comes while reading the body, after a prefix of want
	}{
		{"identity", nil, echo, want, 0, false},
		{"gzip", []string{"gzip"}, gz(echo), want, 0, false},
		{"x-gzip", []string{"x-gzip"}, gz(echo), want, 0, false},
		{"deflate", []string{"deflate"}, zl(echo), want, 0, false},
		{"stacked", []string{"deflate, gzip"}, gz(zl(echo)), want, 0, false},
		{"two lines", []string{"gzip", "deflate"}, zl(gz(echo)), want, 0, false},
		{"multi-member gzip", []string{"gzip"}, append(gz(echo[:10]), gz(echo[10:])...), want, 0, false},
		{"empty gzip (HEAD, 204)", []string{"gzip"}, nil, "", 0, false},
		{"br", []string{"br"}, echo, "", httpResponseContentCoding, false},
		{"zstd", []string{"zstd"}, echo, "", httpResponseContentCoding, false},
		{"gzip then br", []string{"gzip", "br"}, echo, "", httpResponseContentCoding, false},
		{"not gzip", []string{"gzip"}, echo, want, httpResponseContentCoding, true},
		{"bad checksum", []string{"gzip"}, func() []byte { b := gz(echo); b[len(b)-8] ^= 1; return b }(), want, httpResponseContentCoding, true},
		{"cut short", []string{"gzip"}, gz(echo)[:20], want, httpResponseIncomplete, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{Header: http.Header{"Content-Length": {"99"}}, Body: io.NopCloser(bytes.NewReader(tc.body))}
			for _, v := range tc.coding {
				resp.Header.Add("Content-Encoding", v)
			}
			err := c.decode(resp)
			if tc.code != 0 && !tc.onRead {
				var ce *ContentCodingError
				if !errors.As(err, &ce) {
					t.Fatalf("decode: %v, want a refusal", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if len(tc.coding) > 0 && (resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Length") != "" || resp.ContentLength != -1) {
				t.Fatalf("headers still describe the encoded body: %v", resp.Header)
			}
			got, err := io.ReadAll(c.redactBody(resp.Body))
			if tc.code == 0 && err != nil {
				t.Fatalf("read: %v", err)
			}
			if tc.code != 0 {
				if v, ok := httpErrValue(err); !ok || v.Case != tc.code {
					t.Fatalf("read error %v is %v, want %s", err, v, httpErrorNames[tc.code])
				}
			}
			if string(got) != tc.want && !(tc.onRead && strings.HasPrefix(tc.want, string(got))) {
				t.Fatalf("guest read %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzCredentialDecode: any Content-Encoding and any body either is
// refused or reads as the decoded body with every fragment of the key
// redacted; nothing panics.
func FuzzCredentialDecode(f *testing.F) {
	echo := []byte("k=" + testSecret)
	f.Add("gzip", gz(echo))
	f.Add("deflate", zl(echo))
	f.Add("deflate, gzip", gz(zl(echo)))
	f.Add("br", echo)
	f.Add("identity", echo)
	c := &Credential{Secret: testSecret}
	f.Fuzz(func(t *testing.T, coding string, body []byte) {
		resp := &http.Response{Header: http.Header{"Content-Encoding": strings.Split(coding, "\n")}, Body: io.NopCloser(bytes.NewReader(body))}
		if err := c.decode(resp); err != nil {
			return
		}
		got, _ := io.ReadAll(c.redactBody(resp.Body))
		if frag := leaks(testSecret, got); frag != "" {
			t.Fatalf("fragment %q reached the guest: %q", frag, got)
		}
	})
}
