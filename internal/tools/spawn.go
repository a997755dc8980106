package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// ErrSecretInArgv is why a subprocess whose argv would carry one of its
// Secrets does not start.
var ErrSecretInArgv = errors.New("a secret in a subprocess's arguments")

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
	if err := p.argvClean(); err != nil {
		return nil, err
	}
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
	cmd.Env = p.environ()
	cmd.Stdin = p.Stdin
	cmd.Stdout, cmd.Stderr = p.Stdout, p.Stderr
	ownProcessGroup(cmd)
	cmd.WaitDelay = spawnWaitDelay
	return cmd
}

// environ is Env with Secrets set last, replacing any variable of the
// same name; never nil, so never the host's environment.
func (p subprocess) environ() []string {
	env := make([]string, 0, len(p.Env)+len(p.Secrets))
	for _, kv := range p.Env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(p.Secrets, func(s [2]string) bool { return s[0] == name }) {
			env = append(env, kv)
		}
	}
	for _, s := range p.Secrets {
		env = append(env, s[0]+"="+s[1])
	}
	return env
}

// argvClean refuses an argv carrying a secret's value: the trampoline
// and the child would both show it to every local user.
func (p subprocess) argvClean() error {
	for _, s := range p.Secrets {
		if s[1] == "" {
			continue
		}
		for _, a := range append([]string{p.Path}, p.Args...) {
			if strings.Contains(a, s[1]) {
				return fmt.Errorf("%w: the value of %s, which only its environment may carry", ErrSecretInArgv, s[0])
			}
		}
	}
	return nil
}
