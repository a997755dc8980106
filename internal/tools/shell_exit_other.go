//go:build !unix

package tools

import "os"

// exitCode is the process's exit status (no signals here).
func exitCode(ps *os.ProcessState) int32 { return int32(ps.ExitCode()) }

// exitOf is the process's exit code (no signals here).
func exitOf(ps *os.ProcessState) Exit { return Exit{Code: exitCode(ps)} }

// resourceLimit attributes nothing: no rlimits exist here.
func resourceLimit(*os.ProcessState, uint64) string { return "" }
