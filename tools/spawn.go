package tools

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/mur-go/mur/sandbox"
)

// spawnWaitDelay bounds how long a finished or cancelled subprocess's
// pipes may stay open: a grandchild holding them must not hang the call.
const spawnWaitDelay = 2 * time.Second

// subprocess is one native subprocess as every runner starts it (native
// tools and shell commands alike): through the sandbox trampoline when
// one is set, in its own process group that cancellation kills whole,
// with exactly Env as its environment.
type subprocess struct {
	// Path is what to exec; Args its argv, argv[0] included.
	Path string
	Args []string
	// Dir is the working directory; Env the whole environment.
	Dir string
	Env []string
	// Stdin, Stdout and Stderr are the child's stdio (nil: /dev/null).
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// ExtraFiles are passed from fd 3 on.
	ExtraFiles []*os.File
	// Sandbox applies capabilities.resources and the kernel containment
	// plan before exec; nil runs the child with mur's own limits.
	Sandbox *sandbox.Trampoline
}

// run starts p under ctx and waits for it, unless the session's workdir
// guard has latched (then nothing starts: the breach is the error, and
// cmd is nil). When the command ends the guard walks the workdir, so a
// command that filled it is caught before the next one starts. err is
// exec.Cmd.Run's otherwise.
func (p subprocess) run(ctx context.Context) (*exec.Cmd, error) {
	if p.Sandbox != nil {
		if err := p.Sandbox.Refusal(); err != nil {
			return nil, err
		}
	}
	cmd := p.command(ctx)
	err := cmd.Run()
	if p.Sandbox != nil {
		_ = p.Sandbox.Guard.Check() // latches for the next spawn and turn
	}
	return cmd, err
}

// command returns the exec.Cmd for p under ctx; the caller runs it.
func (p subprocess) command(ctx context.Context) *exec.Cmd {
	cmd := exec.CommandContext(ctx, p.Path)
	cmd.Args = p.Args
	cmd.ExtraFiles = p.ExtraFiles
	cmd.Dir = p.Dir
	cmd.Env = append([]string{}, p.Env...) // non-nil: never the host's environment
	cmd.Stdin = p.Stdin
	cmd.Stdout, cmd.Stderr = p.Stdout, p.Stderr
	ownProcessGroup(cmd)
	if p.Sandbox != nil {
		p.Sandbox.Wrap(cmd) // last: it adds namespaces to SysProcAttr and a lifeline to ExtraFiles
	}
	cmd.WaitDelay = spawnWaitDelay
	return cmd
}
