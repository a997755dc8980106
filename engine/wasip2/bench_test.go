package wasip2_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
)

// BenchmarkFileCopy1MiB reads a 1 MiB file and writes it back through the
// Go guest; BenchmarkFileCopy1MiBNative is the same work in host Go. The
// ratio of the two is the throughput number.
func BenchmarkFileCopy1MiB(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "in"), bytes.Repeat([]byte("x"), 1<<20), 0o644)
	var out bytes.Buffer
	inst, _ := instantiate(b, "wasitest-go", wasip2.Grants{
		Dirs:   []wasip2.DirGrant{{Host: dir, Guest: "/d"}},
		Stdout: wasip2.Output{W: &out},
	}, component.Limits{})
	f, _ := inst.Func(runExport)
	b.SetBytes(2 << 20)
	b.ResetTimer()
	for b.Loop() {
		if _, err := f.Call(context.Background(), []any{wit.Some("copy /d/in /d/out"), wit.None()}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFileCopy1MiBNative(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "in"), bytes.Repeat([]byte("x"), 1<<20), 0o644)
	b.SetBytes(2 << 20)
	for b.Loop() {
		data, err := os.ReadFile(filepath.Join(dir, "in"))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "out"), data, 0o644)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchServer is the loopback server of the HTTP benchmarks:
// $WASIP2_BENCH_URL when set (bench/wasi/run.sh points the Go and the
// jco/Node runs at one server), else a fresh echo server.
func benchServer(b *testing.B) string {
	if u := os.Getenv("WASIP2_BENCH_URL"); u != "" {
		return strings.TrimSuffix(u, "/")
	}
	srv, _, _ := echoServer(b)
	return srv.URL
}

// BenchmarkHTTP100 is 100 sequential GET round trips to a loopback server:
// through the JS guest's fetch, one guest call per request (calls) or all
// 100 in one call (loop), and with a plain net/http client (go).
func BenchmarkHTTP100(b *testing.B) {
	base := benchServer(b)
	u, _ := url.Parse(base)
	b.Run("js-calls", func(b *testing.B) {
		g := newFetcher(b, "http://"+u.Host)
		if r := g.do(b, fetchReq{URL: base + "/"}); r.status != "passed" {
			b.Fatalf("%+v", r)
		}
		in, _ := json.Marshal(fetchReq{URL: base + "/"})
		args := []any{wit.Some(string(in)), wit.None()}
		for b.Loop() {
			for range 100 {
				if _, err := g.f.Call(context.Background(), args); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("js-loop", func(b *testing.B) {
		g := newFetcher(b, "http://"+u.Host)
		for b.Loop() {
			if r := g.do(b, fetchReq{URL: base + "/", Count: 100}); r.status != "passed" {
				b.Fatalf("%+v", r)
			}
		}
	})
	b.Run("go", func(b *testing.B) {
		client := &http.Client{Transport: &http.Transport{}}
		defer client.CloseIdleConnections()
		for b.Loop() {
			for range 100 {
				resp, err := client.Get(base + "/")
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	})
}
