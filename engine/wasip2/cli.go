package wasip2

import (
	"context"

	"github.com/mur-go/mur/engine/wit"
)

// stdoutStream adapts a cappedWriter to an output stream: writes complete
// at once, so it is always ready.
type stdoutStream struct {
	alwaysReady
	w *cappedWriter
}

func (s *stdoutStream) checkWrite() (int, error) { return maxChunk, nil }
func (s *stdoutStream) write(b []byte) error {
	_, err := s.w.Write(b)
	return err
}
func (s *stdoutStream) flush() error { return nil }

func (h *host) registerCLI() {
	t := h.t
	const env = "wasi:cli/environment"
	h.fn(env, "get-environment", fn(list(tuple(wit.String, wit.String))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		out := make([]any, len(c.g.Env))
		for i, kv := range c.g.Env {
			out[i] = []any{kv[0], kv[1]}
		}
		return out, nil
	})
	h.fn(env, "get-arguments", fn(list(wit.String)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		out := make([]any, len(c.g.Args))
		for i, s := range c.g.Args {
			out[i] = s
		}
		return out, nil
	})
	h.fn(env, "initial-cwd", fn(option(wit.String)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		if c.g.Cwd == "" {
			return wit.None(), nil
		}
		return wit.Some(c.g.Cwd), nil
	})

	const exit = "wasi:cli/exit"
	h.fn(exit, "exit", fn(nil, param("status", result(nil, nil))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		if r, _ := a[0].(wit.ResultValue); r.Err {
			return nil, &ExitError{Code: 1}
		}
		return nil, &ExitError{Code: 0}
	})
	h.fn(exit, "exit-with-code", fn(nil, param("status-code", wit.U8)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		code, _ := a[0].(uint8)
		return nil, &ExitError{Code: uint32(code)}
	})

	h.uses("wasi:cli/stdin", t.inputStream)
	h.uses("wasi:cli/stdout", t.outputStream)
	h.uses("wasi:cli/stderr", t.outputStream)
	h.uses("wasi:cli/terminal-stdin", t.terminalInput)
	h.uses("wasi:cli/terminal-stdout", t.terminalOutput)
	h.uses("wasi:cli/terminal-stderr", t.terminalOutput)
	// Each get-* call returns a new handle; they share the underlying
	// stream (stdin's position, stdout's cap).
	h.fn("wasi:cli/stdin", "get-stdin", fn(own(t.inputStream)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.newRes(t.inputStream, &inputStream{s: c.stdinStream()}), nil
	})
	h.fn("wasi:cli/stdout", "get-stdout", fn(own(t.outputStream)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.newRes(t.outputStream, &outputStream{s: &stdoutStream{w: c.stdout}}), nil
	})
	h.fn("wasi:cli/stderr", "get-stderr", fn(own(t.outputStream)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.newRes(t.outputStream, &outputStream{s: &stdoutStream{w: c.stderr}}), nil
	})

	// There is never a terminal: the guest's stdio is captured.
	h.resource("wasi:cli/terminal-input", t.terminalInput)
	h.resource("wasi:cli/terminal-output", t.terminalOutput)
	none := func(ctx context.Context, c *Ctx, a []any) (any, error) { return wit.None(), nil }
	h.fn("wasi:cli/terminal-stdin", "get-terminal-stdin", fn(option(own(t.terminalInput))), none)
	h.fn("wasi:cli/terminal-stdout", "get-terminal-stdout", fn(option(own(t.terminalOutput))), none)
	h.fn("wasi:cli/terminal-stderr", "get-terminal-stderr", fn(option(own(t.terminalOutput))), none)
}

// stdinStream returns the shared stdin reader, created on first use.
func (c *Ctx) stdinStream() inStream {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stdin == nil {
		c.stdin = &bytesIn{b: c.g.Stdin}
	}
	return c.stdin
}
