package mcp

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/tools"
)

// Local is a server the runtime starts: Process is how, as a shell
// command of the capsule starts (its Sandbox the shell's trampoline, its
// Env the subprocess environment with the server's own env); its stdin,
// stdout and stderr are the server's own.
type Local struct {
	Process tools.Process
}

// stopGrace is how long a local server has to exit once its stdin is
// closed (the MCP stdio shutdown) before its process group is killed.
const stopGrace = 2 * time.Second

// stderrTail is how much of a local server's stderr is kept to explain a
// failure.
const stderrTail = 2 << 10

// process is a started local server.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // the runtime's end of the server's stdin
	stdout *os.File // the runtime's end of the server's stdout
	exited chan struct{}
	stderr *stderrLog
	// stopping is set once stop began: an exit before it is the server's
	// own, which the log says.
	stopping atomic.Bool
}

// startLocal starts l bound to life (cancelling life kills it) with pipes
// for the stdio transport. The process joins the session's cgroup scope
// through its trampoline, so the scope's reaper kills it however mur
// ends.
func startLocal(life context.Context, l *Local, log *slog.Logger) (*process, sdk.Transport, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, err
	}
	p := &process{stdin: inW, stdout: outR, exited: make(chan struct{}), stderr: &stderrLog{log: log}}
	proc := l.Process
	proc.Stdin, proc.Stdout, proc.Stderr = inR, outW, p.stderr
	cmd, err := proc.Start(life)
	// The child holds its ends now (or never will): the runtime's copies
	// would keep the pipes open after the server exits.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, fmt.Errorf("starting %s: %w", proc.Path, err)
	}
	p.cmd = cmd
	go func() {
		err := cmd.Wait()
		_ = tools.KillGroup(cmd) // what it left behind must not outlive it
		if !p.stopping.Load() {
			log.Warn("the MCP server's process ended while the session runs; its tools now fail", "err", err, "stderr", p.stderr.tail())
		}
		close(p.exited)
	}()
	return p, &sdk.IOTransport{Reader: outR, Writer: inW}, nil
}

// stop ends the server as MCP's stdio transport asks: its stdin closed,
// then, if it has not exited within stopGrace, its process group killed.
// It returns once the process is gone.
func (p *process) stop() {
	p.stopping.Store(true)
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(stopGrace):
		_ = tools.KillGroup(p.cmd)
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	p.stdout.Close()
}

// stderrTail is the end of what the server wrote on stderr.
func (p *process) stderrTail() string { return p.stderr.tail() }

// stderrLog takes a local server's stderr: each line to the log at debug
// level, the last stderrTail bytes kept.
type stderrLog struct {
	log  *slog.Logger
	mu   sync.Mutex
	line []byte
	last []byte
}

func (s *stderrLog) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = append(s.last, b...)
	if over := len(s.last) - stderrTail; over > 0 {
		s.last = s.last[over:]
	}
	s.line = append(s.line, b...)
	for {
		i := bytes.IndexByte(s.line, '\n')
		if i < 0 {
			break
		}
		s.log.Debug("mcp server stderr", "line", string(s.line[:i]))
		s.line = s.line[i+1:]
	}
	if len(s.line) > stderrTail {
		s.log.Debug("mcp server stderr", "line", string(s.line))
		s.line = s.line[:0]
	}
	return len(b), nil
}

func (s *stderrLog) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(s.last), ""))
}
