package launch_test

// The credential gateway attacked by its hostile driver, keythief (guests/
// go/keythief): it asks the endpoint, and a second origin that serves what
// the endpoint was sent, for every transformation of a response HTTP lets
// a client ask for (content codings asked for or sent unasked, stacked or
// over two header lines; ranges; an echo cut short; chunked frames
// splitting the key at every offset; header lines splitting it), decodes
// what it gets and ends its turn with all of it reversed. Through the real
// `mur run`, over HTTP/1.1 and over HTTP/2 with TLS, no FragmentLen-byte
// run of the key, forward or reversed, may appear in result.txt, the
// trace, any file of the project, or mur's output.

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// echoEndpoint answers GET /echo with the credential headers of the
// request and the last Authorization its credentialed origin saw,
// transformed as the request asks (see keythief's probes).
type echoEndpoint struct {
	mu     sync.Mutex
	stored string
}

func (e *echoEndpoint) handler(credentialed bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		if credentialed {
			e.stored = r.Header.Get("Authorization")
		}
		body := []byte("a=" + r.Header.Get("Authorization") + "|k=" + r.Header.Get("X-Api-Key") + "|s=" + e.stored + "|\n")
		e.mu.Unlock()
		q := r.URL.Query()
		h := w.Header()
		h.Set("ETag", `"e1"`)
		if rg := r.Header.Get("Range"); rg != "" && (r.Header.Get("If-Range") == "" || r.Header.Get("If-Range") == `"e1"`) {
			var a, b int
			if _, err := fmt.Sscanf(rg, "bytes=%d-%d", &a, &b); err != nil || a >= len(body) {
				w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
				return
			}
			b = min(b, len(body)-1)
			h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", a, b, len(body)))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(body[a : b+1])
			return
		}
		if n, err := strconv.Atoi(q.Get("trunc")); err == nil {
			body = body[:min(n, len(body))]
		}
		if q.Get("hsplit") != "" {
			auth := r.Header.Get("Authorization")
			h.Set("X-Echo", auth)
			h.Set("X-Echo-A", auth[:len(auth)/2])
			h.Set("X-Echo-B", auth[len(auth)/2:])
		}
		var codings []string
		if ce := q.Get("ce"); ce != "" {
			for _, line := range strings.Split(ce, "/") {
				h.Add("Content-Encoding", line)
				codings = append(codings, strings.Split(line, ",")...)
			}
		} else {
			for _, tok := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
				tok = strings.TrimSpace(strings.Split(tok, ";")[0])
				if slices.Contains([]string{"gzip", "deflate", "br", "zstd"}, tok) {
					h.Set("Content-Encoding", tok)
					codings = []string{tok}
					break
				}
			}
		}
		for _, c := range codings {
			body = encodeAs(c, body)
		}
		f, _ := w.(http.Flusher)
		switch k := q.Get("chunk"); {
		case k == "each":
			for i := range body {
				w.Write(body[i : i+1])
				f.Flush()
			}
		case k != "":
			n, _ := strconv.Atoi(k)
			n = min(n, len(body))
			w.Write(body[:n])
			f.Flush()
			w.Write(body[n:])
		default:
			h.Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}
	})
}

// encodeAs applies a content coding: gzip and deflate as HTTP defines
// them, br and zstd as stand-ins only the guest and this endpoint know
// (base64 and hex), as any coding the host cannot decode would be.
func encodeAs(coding string, b []byte) []byte {
	var buf bytes.Buffer
	switch strings.TrimSpace(coding) {
	case "gzip":
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
	case "deflate":
		w := zlib.NewWriter(&buf)
		w.Write(b)
		w.Close()
	case "br":
		return []byte(base64.StdEncoding.EncodeToString(b))
	case "zstd":
		return []byte(hex.EncodeToString(b))
	default:
		return b
	}
	return buf.Bytes()
}

// keythiefPkg packs keythief-go as the driver keythief, which declares
// the credential header openai-compatible does.
var keythiefPkg = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-keythief-pkg-")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(src, "keythief")
	if err := copyFile(testguest.Path(testguest.KeythiefGo), filepath.Join(dir, "keythief.wasm")); err != nil {
		return "", err
	}
	yaml := "name: keythief\nversion: \"0.1.0\"\nruntime: driver\ncredential: {header: Authorization, prefix: \"Bearer \"}\nrequires_files: [keythief.wasm]\n"
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build keythief: exit %d\n%s", code, stderr)
	}
	return filepath.Join(src, "keythief-0.1.0.mur.zip"), nil
})

// keyFragment is the first run of wasip2.FragmentLen bytes of the key,
// forward or reversed, in b, or "".
func keyFragment(b []byte) string {
	rev := []byte(providerKey)
	slices.Reverse(rev)
	for _, k := range []string{providerKey, string(rev)} {
		for i := 0; i+wasip2.FragmentLen <= len(k); i++ {
			if bytes.Contains(b, []byte(k[i:i+wasip2.FragmentLen])) {
				return k[i : i+wasip2.FragmentLen]
			}
		}
	}
	return ""
}

func TestKeythiefGetsNoPartOfTheKey(t *testing.T) {
	pkg, err := keythiefPkg()
	if err != nil {
		t.Fatal(err)
	}
	for _, proto := range []string{"HTTP/1", "HTTP/2"} {
		t.Run(proto, func(t *testing.T) {
			e := &echoEndpoint{}
			var protos sync.Map // the protocols the endpoint was reached over
			echo := e.handler(true)
			endpoint := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				protos.Store(fmt.Sprintf("HTTP/%d", r.ProtoMajor), true)
				echo.ServeHTTP(w, r)
			}))
			var env []string
			if proto == "HTTP/2" {
				endpoint.EnableHTTP2 = true
				endpoint.StartTLS()
				ca := filepath.Join(t.TempDir(), "ca.pem")
				if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: endpoint.Certificate().Raw}), 0o644); err != nil {
					t.Fatal(err)
				}
				env = append(env, "SSL_CERT_FILE="+ca)
			} else {
				endpoint.Start()
			}
			t.Cleanup(endpoint.Close)
			mirror := httptest.NewServer(e.handler(false))
			t.Cleanup(mirror.Close)

			p := &project{t: t, dir: t.TempDir()}
			yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %s
  model: m
  api_key: ${MOCK_PROVIDER_KEY}
  driver:
    artifact: keythief
    config: {mirror: "%s"}
artifacts:
  - name: keythief
    version: "0.1.0"
    runtime: driver
capabilities:
  network:
    allow: [%s, %s]
`, endpoint.URL, mirror.URL, endpoint.URL, mirror.URL)
			if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			env = append(env, "MOCK_PROVIDER_KEY="+providerKey)
			if out, stderr, code := runMur(p.dir, env, "install", pkg); code != 0 {
				t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
			}
			stdout, stderr, code := runMur(p.dir, env, "run", "--task", "steal the key")
			if code != 0 {
				t.Fatalf("mur run: exit %d\nstdout:\n%.4000s\nstderr:\n%.4000s", code, stdout, stderr)
			}
			if _, ok := protos.Load(proto); !ok {
				t.Fatalf("the endpoint was not reached over %s", proto)
			}
			found := []byte(sessionResult(t, p.dir))
			slices.Reverse(found)
			// Each probe ran and ended as the gateway decides.
			for _, want := range []string{
				"plain status=200 err=none",
				"accept-encoding:gzip status=200 err=none",
				"accept-encoding:br status=200 err=none",
				"content-encoding:gzip status=200 err=none",
				"content-encoding:deflate,gzip status=200 err=none",
				"content-encoding:br status=0 err=wasi:http HTTP-response-content-coding",
				"content-encoding:zstd status=0 err=wasi:http HTTP-response-content-coding",
				"content-encoding:gzip/br status=0 err=wasi:http HTTP-response-content-coding",
				"range(if-range=false) status=0 err=wasi:http HTTP-request-denied",
				"range(if-range=true) status=0 err=wasi:http HTTP-request-denied",
				"header-split status=200 err=none",
				"Bearer [REDACTED]",
			} {
				if !bytes.Contains(found, []byte(want)) {
					t.Errorf("keythief's findings lack %q:\n%.6000s", want, found)
				}
			}
			if frag := keyFragment(found); frag != "" {
				t.Errorf("keythief got %q of the key:\n%.6000s", frag, found)
			}
			if frag := keyFragment([]byte(stdout + stderr)); frag != "" {
				t.Errorf("mur's output has %q of the key", frag)
			}
			_ = filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				if b, err := os.ReadFile(path); err == nil {
					if frag := keyFragment(b); frag != "" {
						t.Errorf("%s has %q of the key", path, frag)
					}
				}
				return nil
			})
		})
	}
}
