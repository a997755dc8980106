//go:build linux

// Command crash is the native tool of steer_crash_linux_test.go: its input
// (the model's tool_call input) names a signal, {"signal": "KILL"} or
// {"signal": "SEGV"}; it writes "dying by SIG<name>" to stderr and kills
// itself with that signal, with the default action restored first, so it
// ends as a crashing program does rather than through Go's own handler.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

func main() {
	var in struct {
		Data string `json:"data"`
	}
	var args struct {
		Signal string `json:"signal"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err == nil {
		_ = json.Unmarshal([]byte(in.Data), &args)
	}
	sig := map[string]syscall.Signal{"KILL": syscall.SIGKILL, "SEGV": syscall.SIGSEGV}[args.Signal]
	if sig == 0 {
		fmt.Println(`{"status": "error", "summary": "crash: no signal named"}`)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "dying by SIG%s\n", args.Signal)
	// An all-zero kernel sigaction is SIG_DFL with no flags on every
	// architecture; Go's handler would otherwise turn SIGSEGV into exit 2.
	var dfl [4]uint64
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
	syscall.Kill(os.Getpid(), sig)
	select {}
}
