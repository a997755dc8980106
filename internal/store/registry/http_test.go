package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
)

const key = "test-key"

// newRemote starts a real server on loopback over a temporary directory.
func newRemote(t *testing.T) (*Client, *Local) {
	t.Helper()
	dir := t.TempDir()
	srv := httptest.NewServer(NewServer(dir, WithAPIKey(key)))
	t.Cleanup(srv.Close)
	return NewClient(srv.URL+"/", key, nil, nil), NewLocal(dir, nil)
}

func TestHTTPRoundTrip(t *testing.T) {
	ctx := context.Background()
	c, store := newRemote(t)
	data := pkg(t, "t", "1.0.0", "tool")
	var progressed int64
	c.Progress = func(label string, done, total int64) { progressed = done }
	pub, err := c.Publish(ctx, meta("t", "1.0.0"), data)
	if err != nil {
		t.Fatal(err)
	}
	if pub.ArtifactID != "t@1.0.0" || pub.SHA256 != artifact.SHA256Hex(data) || progressed != int64(len(data)) {
		t.Errorf("publish %+v, progress %d", pub, progressed)
	}
	res, err := c.Resolve(ctx, "t", "1.0.0", nil)
	if err != nil || !bytes.Equal(res.Data, data) || res.Verify() != nil {
		t.Fatalf("download: %v", err)
	}
	list, err := c.List(ctx)
	if err != nil || len(list) != 1 || list[0].ArtifactRuntime != "tool" || list[0].Runtime != artifact.Wasm {
		t.Errorf("index %+v %v", list, err)
	}
	// The server stored it in the local layout.
	if _, err := store.Resolve(ctx, "t", "1.0.0", nil); err != nil {
		t.Error(err)
	}
	// Platform variant, then download with and without a platform.
	native := append(pkg(t, "t", "1.0.0", "tool"), 7)
	nm := meta("t", "1.0.0", linux)
	nm.Runtime = artifact.Native
	if _, err := c.Publish(ctx, nm, native); err != nil {
		t.Fatal(err)
	}
	if res, _ := c.Resolve(ctx, "t", "1.0.0", &linux); res == nil || !bytes.Equal(res.Data, native) {
		t.Error("platform variant not served")
	}
	if res, _ := c.Resolve(ctx, "t", "1.0.0", nil); res == nil || !bytes.Equal(res.Data, data) {
		t.Error("generic package not served without platform")
	}
}

func TestHTTPErrorMapping(t *testing.T) {
	ctx := context.Background()
	c, _ := newRemote(t)
	data := pkg(t, "t", "1", "tool")
	if _, err := c.Publish(ctx, meta("t", "1"), data); err != nil {
		t.Fatal(err)
	}
	wrongKey := NewClient(c.Base(), "nope", nil, nil)
	dead := NewClient("http://127.0.0.1:1", key, nil, nil)
	for _, tc := range []struct {
		name   string
		err    error
		code   diag.Code
		target error
		msg    string
	}{
		{"409", func() error { _, err := c.Publish(ctx, meta("t", "1"), data); return err }(), CodeConflict, ErrConflict, "artifact t@1 already exists in registry"},
		{"404", func() error { _, err := c.Resolve(ctx, "t", "2", nil); return err }(), CodeNotFound, ErrNotFound, "artifact t@2 not found in registry"},
		{"401 publish", func() error { _, err := wrongKey.Publish(ctx, meta("t", "3"), data); return err }(), CodeIO, ErrAuth,
			"registry authentication failed for " + c.Base() + ". Check NEXUS_API_KEY and try again."},
		{"401 index", func() error { _, err := wrongKey.List(ctx); return err }(), CodeIO, ErrAuth, "registry authentication failed"},
		{"transport", func() error { _, err := dead.Resolve(ctx, "t", "1", nil); return err }(), CodeIO, nil, "registry request to http://127.0.0.1:1 failed"},
		{"manifest mismatch is 400", func() error { _, err := c.Publish(ctx, meta("t", "9"), data); return err }(), CodeIO, ErrProtocol,
			"publish failed with HTTP 400: package manifest says t@1 but the request publishes t@9"},
		{"not a zip is 400", func() error { _, err := c.Publish(ctx, meta("z", "1"), []byte("junk")); return err }(), CodeIO, ErrProtocol, "not a valid zip archive"},
		{"bad url", func() error { _, err := NewClient("ftp://x", key, nil, nil).List(ctx); return err }(), CodeIO, ErrInvalidInput, "invalid registry URL 'ftp://x'"},
	} {
		var e *diag.Error
		if !errors.As(tc.err, &e) || e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) || (tc.target != nil && !errors.Is(tc.err, tc.target)) {
			t.Errorf("%s: got %v; want %s %q", tc.name, tc.err, tc.code, tc.msg)
		}
	}
}

// A server that answers 422 with the reserved text must map to E-REG-004,
// even though the client also refuses reserved versions itself.
func TestClientProtocolEdges(t *testing.T) {
	ctx := context.Background()
	var handler http.HandlerFunc
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer k" {
			t.Errorf("authorization header %q", r.Header.Get("Authorization"))
		}
		handler(w, r)
	}))
	defer srv.Close()
	c := NewClient(srv.URL, "k", nil, nil)
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		call    func() error
		code    diag.Code
		msg     string
	}{
		{"reserved 422", func(w http.ResponseWriter, r *http.Request) {
			writeError(w, 422, "reserved artifact version 'v1' is not allowed")
		}, func() error { _, err := c.Publish(ctx, meta("t", "v1"), nil); return err }, CodeReserved, "version 'v1' is reserved"},
		{"other 422", func(w http.ResponseWriter, r *http.Request) { writeError(w, 422, "bad name") },
			func() error { _, err := c.Publish(ctx, meta("t", "1"), nil); return err }, CodeIO, "registry error: bad name"},
		{"raw body", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500); io.WriteString(w, "boom") },
			func() error { _, err := c.Publish(ctx, meta("t", "1"), nil); return err }, CodeIO, "publish failed with HTTP 500: boom"},
		{"empty body", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(502) },
			func() error { _, err := c.Resolve(ctx, "t", "1", nil); return err }, CodeIO, "download failed with HTTP 502: unknown registry error"},
		{"bad 201 json", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201); io.WriteString(w, "{") },
			func() error { _, err := c.Publish(ctx, meta("t", "1"), nil); return err }, CodeIO, "invalid publish response"},
		{"missing sha header", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "zip") },
			func() error { _, err := c.Resolve(ctx, "t", "1", nil); return err }, CodeIO, "registry error: registry response missing x-murmur-sha256 header"},
		{"index lacks fields", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `[{"name":"a","version":"1"}]`) },
			func() error { _, err := c.List(ctx); return err }, CodeIO, "invalid index response from " + srv.URL},
		{"403", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(403) },
			func() error { _, err := c.List(ctx); return err }, CodeIO, "registry authentication failed"},
	} {
		handler = tc.handler
		err := tc.call()
		var e *diag.Error
		if !errors.As(err, &e) || e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: got %v; want %s %q", tc.name, err, tc.code, tc.msg)
		}
	}
}

func TestServerRequests(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(NewServer(dir, WithAPIKey(key), WithMaxUpload(1<<10)))
	defer srv.Close()
	do := func(method, path string, body []byte, auth string) (int, string) {
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	bearer := "Bearer " + key
	data := pkg(t, "t", "1", "tool")
	for _, tc := range []struct {
		method, path string
		body         []byte
		auth         string
		status       int
		body2        string
	}{
		{"GET", "/v1/artifacts", nil, "", 401, `{"error":"missing or invalid API key"}`},
		{"GET", "/v1/artifacts", nil, "Bearer wrong", 401, "missing or invalid API key"},
		{"POST", "/v1/artifacts?name=t&version=1", data, bearer, 400, "name, version and runtime"},
		{"POST", "/v1/artifacts?name=t&version=1&runtime=docker", data, bearer, 400, "invalid runtime 'docker' (expected wasm|native|static)"},
		{"POST", "/v1/artifacts?name=t&version=EDGE&runtime=wasm", data, bearer, 422, `{"error":"reserved artifact version 'EDGE' is not allowed"}`},
		{"POST", "/v1/artifacts?name=t&version=1&runtime=wasm&platform=linux", data, bearer, 400, "invalid platform 'linux'"},
		{"POST", "/v1/artifacts?name=t&version=1&runtime=wasm", bytes.Repeat([]byte("x"), 2<<10), bearer, 413, "package larger than 1024 bytes"},
		{"POST", "/v1/artifacts?name=t&version=1&runtime=wasm", data, bearer, 201, fmt.Sprintf(`{"artifact_id":"t@1","sha256":"%s"}`, artifact.SHA256Hex(data))},
		{"POST", "/v1/artifacts?name=t&version=1&runtime=wasm", data, bearer, 409, "already exists"},
		{"GET", "/v1/artifacts/t/1?platform=x", nil, bearer, 400, "invalid platform"},
		{"GET", "/v1/artifacts/t/2", nil, bearer, 404, "artifact t@2 not found"},
		{"GET", "/v1/artifacts/..%2f..%2fetc/1", nil, bearer, 400, "invalid artifact name"},
		{"DELETE", "/v1/artifacts/t/1", nil, bearer, 404, "no such endpoint: DELETE"},
		{"GET", "/nope", nil, bearer, 404, "no such endpoint"},
	} {
		status, body := do(tc.method, tc.path, tc.body, tc.auth)
		if status != tc.status || !strings.Contains(body, tc.body2) {
			t.Errorf("%s %s: %d %s; want %d %q", tc.method, tc.path, status, body, tc.status, tc.body2)
		}
	}
	if _, err := os.Stat(dir + "/t/1/t-1.mur.zip"); err != nil {
		t.Error(err)
	}
}
