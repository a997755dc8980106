package tools

import (
	"context"
	"os"
	"os/exec"
	"time"
)

// spawnWaitDelay bounds how long a finished or cancelled subprocess's
// pipes may stay open: a grandchild holding them must not hang the call.
const spawnWaitDelay = 2 * time.Second

// subprocess is one native subprocess as every runner starts it (native
// tools and shell commands alike): through the sandbox trampoline when
// one is set, in its own process group that cancellation kills whole,
// with exactly Env as its environment.
type subprocess struct {
	Process
	// ExtraFiles are passed from fd 3 on.
	ExtraFiles []*os.File
}

// start starts p under ctx and returns its command, for the caller to
// wait on. Nothing starts once the session's workdir guard has latched:
// the breach is the error (errors.Is sandbox.ErrWorkdirCeiling) and cmd
// is nil. Through a trampoline it returns only once the tool has been
// exec'd: a *sandbox.SetupError says the containment could not be
// applied and nothing ran.
func (p subprocess) start(ctx context.Context) (*exec.Cmd, error) {
	if p.Sandbox == nil {
		cmd := p.command(ctx)
		return cmd, cmd.Start()
	}
	if err := p.Sandbox.Refusal(); err != nil {
		return nil, err
	}
	cmd := p.command(ctx)
	return cmd, p.Sandbox.Start(cmd) // last: it adds namespaces to SysProcAttr and pipes to ExtraFiles
}

// wait waits for cmd, which start started, and then has the workdir
// guard walk the workdir, so a command that filled it is caught before
// the next one starts. err is exec.Cmd.Wait's.
func (p subprocess) wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	if p.Sandbox != nil {
		_ = p.Sandbox.Guard.Check() // latches for the next spawn and turn
	}
	return err
}

// command is the exec.Cmd for p under ctx, before any trampoline.
func (p subprocess) command(ctx context.Context) *exec.Cmd {
	cmd := exec.CommandContext(ctx, p.Path)
	cmd.Args = p.Args
	cmd.ExtraFiles = p.ExtraFiles
	cmd.Dir = p.Dir
	cmd.Env = append([]string{}, p.Env...) // non-nil: never the host's environment
	cmd.Stdin = p.Stdin
	cmd.Stdout, cmd.Stderr = p.Stdout, p.Stderr
	ownProcessGroup(cmd)
	cmd.WaitDelay = spawnWaitDelay
	return cmd
}
