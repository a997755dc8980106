//go:build wasip1

// Command guard is the first-party policy hook: a capsule author lists the
// tools and shell commands an agent must not use, and no task that used
// one can end well.
//
// What it can enforce is bounded by the arms murmur:hook@0.5.0 honours
// (shared/spec/wit.md §6.3): on-tool-call and on-shell honour none, so a
// call cannot be stopped before or while it runs (that needs 0.7.0's
// deny). Guard therefore (1) records every violation it sees at
// on-tool-call and on-shell and answers err, so each one is a line in
// logs/hook-<name>.log, and (2) at on-task-end answers reopen-task naming
// the violations, which sends the task back to the model with that
// feedback; once inference.max_task_reopens is used up the runtime fails
// the task (reopen_budget_exhausted). A task that broke the policy cannot
// end ok. Guard must be unbound (it needs on-tool-call, on-shell and
// on-task-end) and blocking.
//
// At on-stage guard does nothing: write-manifests could only reword a
// shell tool's description, and its policy is not mounted there (an
// unbound hook's on-stage root is the session workdir).
//
// Its policy is guard.json at the root of its granted filesystem.scope,
// read once at on-session-start, before any tool runs (so the agent cannot
// loosen it mid-session; an operator who fears a change between sessions
// keeps the file read-only or outside what the agent's tools may write):
//
//	{"deny_tools": ["deploy", "net-*"], "deny_commands": ["rm -rf", "git push*"]}
//
// A tool pattern matches the whole tool name; a command pattern matches
// anywhere in the command (as run, cut to 200 characters) or its binary;
// '*' matches any run of characters. An unreadable or invalid policy
// fails closed: every task is reopened, then failed, saying why.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"unsafe"

	"github.com/mur-go/mur/guests/go/hookabi"
)

func main() {}

type policy struct {
	DenyTools    []string `json:"deny_tools"`
	DenyCommands []string `json:"deny_commands"`
}

// The instance lives for the whole session, so its state does too.
var (
	rules      policy
	policyErr  string
	violations []string
)

func load() {
	rules, policyErr = policy{}, ""
	b, err := readPolicy()
	if err != nil {
		policyErr = fmt.Sprintf("guard: cannot read its policy guard.json (grant the hook a filesystem.scope holding it): %v", err)
		return
	}
	if err := json.Unmarshal(b, &rules); err != nil {
		policyErr = fmt.Sprintf("guard: invalid policy guard.json: %v", err)
	}
}

// readPolicy reads guard.json from the hook's one preopen, fd 3: Go's
// path resolution cannot reach a directory preopened as "." by a
// relative name.
func readPolicy() ([]byte, error) {
	fd, err := syscall.Openat(3, "guard.json", syscall.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "guard.json")
	defer f.Close()
	return io.ReadAll(f)
}

// match reports whether s matches pattern, '*' matching any run of
// characters; whole is false for a pattern that may match anywhere.
func match(pattern, s string, whole bool) bool {
	if !whole {
		pattern = "*" + pattern + "*"
	}
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return s == pattern
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

func violate(what string) unsafe.Pointer {
	violations = append(violations, what)
	return hookabi.Err("guard: policy violation: " + what)
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-session-start
func onSessionStart(uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32) unsafe.Pointer {
	hookabi.Begin()
	load()
	if policyErr != "" {
		return hookabi.Err(policyErr)
	}
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-task-start
func onTaskStart(uint32, uint32, uint32, uint32, uint32, uint32, uint64) unsafe.Pointer {
	hookabi.Begin()
	violations = nil
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-tool-call
func onToolCall(turn uint32, namePtr unsafe.Pointer, nameLen uint32, _, _, _ uint64, _, _ uint32) unsafe.Pointer {
	name := hookabi.Str(namePtr, nameLen)
	hookabi.Begin()
	for _, p := range rules.DenyTools {
		if match(p, name, true) {
			return violate(fmt.Sprintf("turn %d called tool '%s' (denied by '%s')", turn, name, p))
		}
	}
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-shell
func onShell(turn uint32, binPtr unsafe.Pointer, binLen uint32, cmdPtr unsafe.Pointer, cmdLen uint32,
	_ uint32, _, _, _, _ uint32, _, _, _ uint64) unsafe.Pointer {
	bin, cmd := hookabi.Str(binPtr, binLen), hookabi.Str(cmdPtr, cmdLen)
	hookabi.Begin()
	for _, p := range rules.DenyCommands {
		if match(p, cmd, false) || match(p, bin, false) {
			return violate(fmt.Sprintf("turn %d ran `%s` (denied by '%s')", turn, cmd, p))
		}
	}
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-task-end
func onTaskEnd(uint32, uint32, uint32, uint32) unsafe.Pointer {
	hookabi.Begin()
	if policyErr != "" {
		return hookabi.ReopenTask(policyErr + "; no task can pass the guard until it is fixed")
	}
	if len(violations) == 0 {
		return hookabi.None()
	}
	reason := "The capsule's policy forbids what this attempt did:\n- " + strings.Join(violations, "\n- ") +
		"\nDo the task again without these tools or commands."
	violations = nil
	return hookabi.ReopenTask(reason)
}

// The lifecycle functions guard does nothing at.

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-stage
func onStage(uint32, uint32) unsafe.Pointer { hookabi.Begin(); return hookabi.None() }

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-inference
func onInference(unsafe.Pointer) unsafe.Pointer { hookabi.Begin(); return hookabi.None() }

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-compaction
func onCompaction(uint32, uint32, uint64, float64, uint32, uint32, uint32, uint32, uint32, uint32) unsafe.Pointer {
	hookabi.Begin()
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-session-end
func onSessionEnd(uint32, uint64, uint64, uint32, uint32, uint64, uint32, uint32) unsafe.Pointer {
	hookabi.Begin()
	return hookabi.None()
}
