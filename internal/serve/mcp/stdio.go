package mcp

import (
	"context"
	"errors"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFrame bounds one JSON-RPC message read over stdio: the largest body
// the HTTP side takes (httpbound's MaxBody).
const maxFrame = 1 << 20

// ServeStdio serves o over in and out, newline-delimited JSON-RPC, to the
// client that started mur: until the client closes in, or ctx ends.
// Nothing else may write to out. It returns nil when the client closed
// the stream, ctx's error when ctx ended first.
func ServeStdio(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	s, err := newServer(ctx, o)
	if err != nil {
		return err
	}
	// Not the SDK's Run, which logs a stop by ctx as an error: stopping
	// is how a server ends.
	ss, err := s.Connect(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopCloser{out}, MaxLineLength: maxFrame}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-ended
		return ctx.Err()
	case err := <-ended:
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
}

// nopCloser keeps out open when the session ends: it is the process's
// stdout, not the server's to close.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
