package httpbound

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkBody is a 1 KiB POST over a kept-alive loopback connection,
// with the bounds and without them: what they add to a request.
func BenchmarkBody(b *testing.B) {
	body := strings.Repeat("x", 1<<10)
	for _, bounded := range []bool{false, true} {
		name := "bare"
		if bounded {
			name = "bounded"
		}
		b.Run(name, func(b *testing.B) {
			bounds := New(Limits{}, slog.New(slog.DiscardHandler))
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			srv := &http.Server{Handler: echo}
			if bounded {
				srv = bounds.Server(bounds.Body(echo), nil)
				ln = bounds.Listener(ln)
			}
			go func() { _ = srv.Serve(ln) }()
			defer srv.Close()
			url := "http://" + ln.Addr().String() + "/"
			b.ReportAllocs()
			for b.Loop() {
				resp, err := http.Post(url, "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}
