package tools

import (
	"context"
	"io"
	"os/exec"

	"github.com/mur-go/mur/internal/sandbox"
)

// Process is a long-running native subprocess that is not a tool (the
// local agent CLI of transport: process), started through the same spawn
// path as native tools and shell commands: the sandbox trampoline, its
// own process group that cancelling ctx kills whole, exactly Env.
type Process struct {
	// Path is what to exec; Args its argv, argv[0] included.
	Path string
	Args []string
	// Dir is the working directory; Env the whole environment (build it
	// with SubprocessEnv so no host secret reaches the child).
	Dir string
	Env []string
	// Secrets are variables of the runtime's own making that carry a
	// secret (the tool bridge's token), as name and value. They are the
	// one way a secret reaches a child: set in its environment after Env,
	// so no strip list drops them and no host variable shadows them, and
	// never in argv, which every local user can read in /proc/<pid>/cmdline
	// (environ only the child's own uid): Start refuses a Path or Args
	// holding a value of one.
	Secrets [][2]string
	// Stdin, Stdout and Stderr are the child's stdio (nil: /dev/null).
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Sandbox applies capabilities.resources and the kernel containment
	// plan before exec; nil runs the child with mur's own limits.
	Sandbox *sandbox.Trampoline
}

// Start starts p under ctx and returns its command for the caller to
// Wait on; a *sandbox.SetupError means the trampoline could not apply
// the limits and p never ran.
func (p Process) Start(ctx context.Context) (*exec.Cmd, error) {
	return subprocess{Process: p}.start(ctx)
}

// LookPath finds binary in pathList (a PATH value) as shell commands are
// found: absolute entries only, the first executable regular file; a
// name with a separator is used as it is.
func LookPath(binary, pathList string) (string, error) {
	exe, _, err := lookPath(binary, pathList)
	return exe, err
}
