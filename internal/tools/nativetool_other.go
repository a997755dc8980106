//go:build !unix

package tools

import "os/exec"

// ownProcessGroup: without process groups, cancellation kills the tool
// process itself (exec.CommandContext's default).
func ownProcessGroup(*exec.Cmd) {}
