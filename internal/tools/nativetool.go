package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/sandbox"
)

// NativeBinaryFD is the descriptor the pinned binary is passed on: the
// containment plan must keep it (a #! tool's interpreter reads it).
const NativeBinaryFD = 3

// DefaultNativeOutputBytes caps each of a native tool's stdout and stderr
// when NativeTool.MaxOutputBytes is 0.
const DefaultNativeOutputBytes = 16 << 20

// NativeTool runs a native-implementation tool artifact
// (tools/<name>/<name>) as a subprocess: the tool-input as JSON on stdin,
// a JSON tool result on stdout (session.md §2.4, security.md §9).
//
// With Sandbox set the tool starts through its trampoline, under hard
// rlimits. Not done here: the cgroup scope, fd hygiene beyond Go's
// default (only stdio and the pinned binary are inherited), and the
// workdir-size guard.
type NativeTool struct {
	Name string
	// Path is the binary (tools/<name>/<name>).
	Path string
	// SHA256 is the hex digest of the binary's bytes as staging extracted
	// them from the verified package. Every call re-hashes Path and runs
	// only a matching binary: tools/ is the user's to look at, not the
	// runtime's to trust. Required.
	SHA256 string
	// Dir is the working directory: the accessible workdir.
	Dir string
	// Env is the whole environment (SubprocessEnv.Build); nothing else is
	// inherited.
	Env []string
	// Deadline bounds one call; at the deadline the whole process group is
	// killed. 0 means no deadline of its own (ctx still applies). Murmur
	// has none for native tools; mur-go applies capabilities.limits'.
	Deadline time.Duration
	// MaxOutputBytes caps stdout and stderr each; the excess is dropped
	// and the result marked truncated. 0 means DefaultNativeOutputBytes.
	MaxOutputBytes int
	// Sandbox starts the tool under capabilities.resources' rlimits; nil
	// runs it with the limits mur itself has (the session launcher always
	// sets it).
	Sandbox *sandbox.Trampoline
}

// Invoke implements Tool.
func (t *NativeTool) Invoke(ctx context.Context, in ToolInput) (ToolResult, error) {
	name := t.Name
	input, err := json.Marshal(struct {
		Data    *string `json:"data"`
		LogPath *string `json:"log_path"`
	}{in.Data, in.LogPath})
	if err != nil {
		return ToolResult{}, errFailed(name, fmt.Sprintf("failed to serialize input for native tool '%s': %v", name, err), err)
	}
	parent := ctx
	if t.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Deadline)
		defer cancel()
	}
	max := t.MaxOutputBytes
	if max <= 0 {
		max = DefaultNativeOutputBytes
	}
	if t.SHA256 == "" {
		return ToolResult{}, errFailed(name, fmt.Sprintf("native tool '%s' was not run: no staged digest to check its binary against", name), ErrBinaryChanged)
	}
	bin, err := pinBinary(name, t.Path, t.SHA256)
	if err != nil {
		return ToolResult{}, err
	}
	defer bin.Close()
	stdout, stderr := &capBuffer{max: max}, &capBuffer{max: max}
	sp := subprocess{Process: Process{Path: bin.Path, Args: []string{t.Path}, // argv[0] as staged, whatever is executed
		Dir: t.Dir, Env: t.Env, Stdin: bytes.NewReader(input), Stdout: stdout, Stderr: stderr, Sandbox: t.Sandbox}}
	if bin.File != nil {
		// fd 3 stays open in the tool so that a #! script can be read by
		// its interpreter through /proc/self/fd/3.
		sp.ExtraFiles = []*os.File{bin.File}
	}
	cmd, err := sp.start(ctx)
	if err != nil {
		var setup *sandbox.SetupError
		switch {
		case errors.Is(err, sandbox.ErrWorkdirCeiling):
			return ToolResult{}, errFailed(name, err.Error(), err)
		case errors.As(err, &setup):
			e := enforcementFailed("native tool", setup)
			return ToolResult{}, errFailed(name, e.Error(), e)
		}
		return ToolResult{}, errFailed(name, fmt.Sprintf("failed to spawn native tool '%s': %v", name, err), err)
	}
	runErr := sp.wait(cmd)
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil && parent.Err() == nil:
		return ToolResult{}, errDeadline(name, t.Deadline, ctx.Err())
	case ctx.Err() != nil:
		return ToolResult{}, errFailed(name, fmt.Sprintf("native tool '%s' failed to complete: %v", name, parent.Err()), parent.Err())
	case runErr != nil && !errors.As(runErr, &exit) && !errors.Is(runErr, exec.ErrWaitDelay):
		return ToolResult{}, errFailed(name, fmt.Sprintf("native tool '%s' failed to complete: %v", name, runErr), runErr)
	}
	out := strings.ToValidUTF8(stdout.String(), "\uFFFD")
	r := parseNativeOutput(name, cmd.ProcessState.String(), cmd.ProcessState.Success(),
		out, strings.ToValidUTF8(stderr.String(), "\uFFFD"))
	r.Truncated = r.Truncated || stdout.truncated || stderr.truncated
	ended := exitOf(cmd.ProcessState)
	r.Exit = &ended
	if ended.Signal != "" {
		r = killed(name, r, ended, strings.TrimSpace(out) != "")
	}
	return r, nil
}

// killed is the result of a native tool a signal killed: an error
// whatever it printed (it did not finish), its summary saying so, and the
// data the model reads starting with it, then what the tool left (its
// data or own summary, or its stderr). Murmur reports only what the tool
// printed, which hides the kill when it printed anything.
func killed(name string, r ToolResult, e Exit, printed bool) ToolResult {
	note := fmt.Sprintf("native tool '%s' was killed by %s (exit status %d) before it finished", name, e.Signal, e.Code)
	left := ""
	switch {
	case r.Data != nil:
		left = *r.Data
	case printed && r.Summary != nil:
		left = *r.Summary
	}
	r.Status, r.Summary, r.Data = StatusError, Str(note), Str(note)
	if strings.TrimSpace(left) != "" {
		r.Data = Str(note + "; what it wrote before:\n" + left)
	}
	return r
}

// parseNativeOutput reads a native tool's answer: a JSON object with
// status ("passed", "failed", anything else is error), summary and data
// (a non-string data is kept as its JSON text). Empty stdout takes the
// status from the exit code and the data from stderr; stdout that is not
// JSON is the data.
func parseNativeOutput(name, exitState string, success bool, stdout, stderr string) ToolResult {
	byExit := StatusError
	if success {
		byExit = StatusPassed
	}
	out := strings.TrimSpace(stdout)
	if out == "" {
		r := ToolResult{Status: byExit, Summary: Str(fmt.Sprintf("native tool '%s' exited with %s", name, exitState))}
		if stderr != "" {
			r.Data = Str(stderr)
		}
		return r
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		return ToolResult{Status: byExit, Summary: Str(fmt.Sprintf("native tool '%s' completed", name)), Data: Str(stdout)}
	}
	r := ToolResult{Status: StatusError}
	var status string
	if json.Unmarshal(obj["status"], &status) == nil {
		switch status {
		case "passed":
			r.Status = StatusPassed
		case "failed":
			r.Status = StatusFailed
		}
	}
	if s, ok := jsonString(obj["summary"]); ok {
		r.Summary = Str(s)
	}
	if raw, ok := obj["data"]; ok && string(raw) != "null" {
		if s, ok := jsonString(raw); ok {
			r.Data = Str(s)
		} else {
			var compact bytes.Buffer
			if json.Compact(&compact, raw) == nil {
				r.Data = Str(compact.String())
			}
		}
	}
	return r
}

// jsonString returns raw as a string if it is a JSON string (not null).
func jsonString(raw json.RawMessage) (string, bool) {
	var s *string
	if json.Unmarshal(raw, &s) != nil || s == nil {
		return "", false
	}
	return *s, true
}

// capBuffer keeps the first max bytes written and drops the rest, so a
// runaway tool cannot exhaust the runtime's memory.
type capBuffer struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (b *capBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.truncated = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *capBuffer) String() string { return b.buf.String() }

var _ io.Writer = (*capBuffer)(nil)
