//go:build !unix

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
)

// memoryLimitName names nothing here: no rlimits exist.
const memoryLimitName = "memory limit"

// Main refuses: this platform has no rlimits, so no native subprocess may
// start as if it had them.
func Main([]string) {
	fmt.Fprintln(os.Stderr, "mur: native subprocess not started: this platform has no rlimits to apply capabilities.resources with")
	os.Exit(127)
}

// Start starts cmd through the trampoline, which refuses here: there is
// no diagnostic pipe to read, the refusal is on stderr.
func (t Trampoline) Start(cmd *exec.Cmd) error {
	t.Wrap(cmd)
	return cmd.Start()
}
