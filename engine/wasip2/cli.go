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
	const env = "wasi:cli/environment"
	def0(h, env, "get-environment", fn(list(tuple(wit.String, wit.String))), func(ctx context.Context, c *Ctx) (listOf[[2]string], error) {
		return c.g.Env, nil
	})
	def0(h, env, "get-arguments", fn(list(wit.String)), func(ctx context.Context, c *Ctx) (listOf[string], error) {
		return c.g.Args, nil
	})
	def0(h, env, "initial-cwd", fn(option(wit.String)), func(ctx context.Context, c *Ctx) (opt[string], error) {
		if c.g.Cwd == "" {
			return none[string](), nil
		}
		return some(c.g.Cwd), nil
	})

	const exit = "wasi:cli/exit"
	def1(h, exit, "exit", fn(nil, param("status", result(nil, nil))), func(ctx context.Context, c *Ctx, status res[unit, unit]) (unit, error) {
		if status.failed {
			return unit{}, &ExitError{Code: 1}
		}
		return unit{}, &ExitError{Code: 0}
	})
	def1(h, exit, "exit-with-code", fn(nil, param("status-code", wit.U8)), func(ctx context.Context, c *Ctx, code uint8) (unit, error) {
		return unit{}, &ExitError{Code: uint32(code)}
	})
	h.registerStdio()
}

func (h *host) registerStdio() {
	t := h.t
	h.uses("wasi:cli/stdin", t.inputStream)
	h.uses("wasi:cli/stdout", t.outputStream)
	h.uses("wasi:cli/stderr", t.outputStream)
	// Each get-* call returns a new handle; they share the underlying
	// stream (stdin's position, stdout's cap).
	def0(h, "wasi:cli/stdin", "get-stdin", fn(own(t.inputStream)), func(ctx context.Context, c *Ctx) (*inputStream, error) {
		return &inputStream{s: c.stdinStream()}, nil
	})
	def0(h, "wasi:cli/stdout", "get-stdout", fn(own(t.outputStream)), func(ctx context.Context, c *Ctx) (*outputStream, error) {
		return &outputStream{s: &stdoutStream{w: c.stdout}}, nil
	})
	def0(h, "wasi:cli/stderr", "get-stderr", fn(own(t.outputStream)), func(ctx context.Context, c *Ctx) (*outputStream, error) {
		return &outputStream{s: &stdoutStream{w: c.stderr}}, nil
	})

	// There is never a terminal: the guest's stdio is captured.
	h.resource("wasi:cli/terminal-input", t.terminalInput)
	h.resource("wasi:cli/terminal-output", t.terminalOutput)
	h.uses("wasi:cli/terminal-stdin", t.terminalInput)
	h.uses("wasi:cli/terminal-stdout", t.terminalOutput)
	h.uses("wasi:cli/terminal-stderr", t.terminalOutput)
	def0(h, "wasi:cli/terminal-stdin", "get-terminal-stdin", fn(option(own(t.terminalInput))), func(ctx context.Context, c *Ctx) (opt[*terminalInput], error) {
		return none[*terminalInput](), nil
	})
	for _, name := range []string{"stdout", "stderr"} {
		def0(h, "wasi:cli/terminal-"+name, "get-terminal-"+name, fn(option(own(t.terminalOutput))), func(ctx context.Context, c *Ctx) (opt[*terminalOutput], error) {
			return none[*terminalOutput](), nil
		})
	}
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
