package process

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/tools"
)

// maxEventLine bounds one line of the CLI's event stream: a CLI cannot
// make the runtime buffer without limit.
const maxEventLine = 16 << 20

// Run runs one task through the agent CLI (session.md §6) and writes its
// outcome to out/result.txt: the result text, or "error: " and the
// reason. Every run ends with one session_end record. A failed run is a
// coded error marked with its Kind; cancelling ctx or the timeout kills
// the CLI's process group.
func Run(ctx context.Context, o Options) (Result, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Command == "" {
		o.Command = "claude"
	}
	if o.MaxTurns == 0 {
		o.MaxTurns = 10
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Workdir.AccessibleDir == "" || o.Trace == nil || (len(o.Tools) > 0 && o.Dispatcher == nil) {
		return Result{}, failure(KindSetup, nil, "process.Run needs a Workdir, a Trace and, with tools, a Dispatcher")
	}
	rec := newRecorder(o.Trace, o.MaxTurns, time.Now)
	text, err := run(ctx, o, rec)
	if err != nil {
		status := "failed"
		if KindOf(err) == KindCancelled {
			status = "cancelled" // stopping is not failing (agent.ExitCancelled)
		}
		return Result{}, finish(o, rec, "error: "+errMsg(err), status, err)
	}
	if err := finish(o, rec, text, "ok", nil); err != nil {
		return Result{}, err
	}
	return Result{Text: text, Turns: rec.turns, ToolCalls: rec.toolCalls}, nil
}

// finish writes session_end and out/result.txt; failing either fails a
// run that had not already failed.
func finish(o Options, rec *recorder, text, status string, runErr error) error {
	traceErr := o.Trace.SessionEnd(SessionEndRecord{Turns: rec.turns, ToolCalls: rec.toolCalls, ExitStatus: status})
	writeErr := o.Workdir.WriteResult(text)
	switch {
	case runErr != nil:
		return runErr
	case traceErr != nil:
		return failure(KindTrace, traceErr, "trace write failed: %v", traceErr)
	case writeErr != nil:
		return failure(KindIO, writeErr, "writing out/result.txt: %v", writeErr)
	}
	return nil
}

func errMsg(err error) string {
	var e *diag.Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}

// run starts the bridge and the CLI, follows its event stream and
// returns the result text.
func run(ctx context.Context, o Options, rec *recorder) (string, error) {
	o.Env.Workdir = o.Workdir.AccessibleDir
	env, err := o.Env.Build()
	if err != nil {
		return "", failure(KindSetup, err, "preparing the agent CLI's environment: %v", err)
	}
	exe, err := tools.LookPath(o.Command, envValue(env, "PATH"))
	if err != nil {
		return "", failure(KindCommand, err, "inference.command '%s' not found on PATH", o.Command)
	}
	// A path given with a separator is mur's, not the workdir's, which is
	// the CLI's cwd and which the agent can write.
	if exe, err = filepath.Abs(exe); err != nil {
		return "", failure(KindCommand, err, "inference.command '%s': %v", o.Command, err)
	}
	var bc *bridgeConfig
	var secrets [][2]string
	if len(o.Tools) > 0 {
		b, err := StartBridge(ctx, o.Tools, o.Dispatcher, o.Log)
		if err != nil {
			return "", failure(KindSetup, err, "starting the tool bridge: %v", err)
		}
		// While the bridge serves, its token opens the capsule's tools to
		// any local process: no text from the CLI or a tool carries it
		// out (removed once the bridge is closed, when it opens nothing).
		defer o.Workdir.Secrets().Add(b.Token)()
		defer b.Close()
		bc = &bridgeConfig{URL: b.URL}
		secrets = [][2]string{{BridgeTokenEnv, b.Token}}
		for _, t := range o.Tools {
			bc.Tools = append(bc.Tools, t.Name)
		}
	}
	args, stdin, err := argv(o, bc)
	if err != nil {
		return "", failure(KindSetup, err, "building the agent CLI's arguments: %v", err)
	}
	o.Log.Info("agent CLI starting", "command", exe, "codex_dialect", codex(o.Command), "tools", len(o.Tools), "max_turns", o.MaxTurns)
	return follow(ctx, o, rec, tools.Process{Path: exe, Args: append([]string{o.Command}, args...),
		Dir: o.Workdir.AccessibleDir, Env: env, Secrets: secrets, Stdin: stdin, Sandbox: o.Sandbox})
}

// argv is the dialect's arguments and stdin: the task line for Claude,
// nothing (closed) for codex, whose prompt is an argument.
func argv(o Options, bc *bridgeConfig) ([]string, io.Reader, error) {
	if codex(o.Command) {
		return codexArgs(o.Model, o.Notices, o.Task, bc), nil, nil
	}
	args, err := claudeArgs(o.Model, o.Notices, o.Prompt, bc)
	if err != nil {
		return nil, nil, err
	}
	line, err := claudeTaskLine(o.Task)
	return args, bytes.NewReader(line), err
}

// follow runs p and reads its stdout line by line until it ends or the
// run fails (then its group is killed); the outcome is decided after it
// has exited.
func follow(ctx context.Context, o Options, rec *recorder, p tools.Process) (string, error) {
	timed, cancelTimeout := context.WithTimeout(ctx, o.Timeout)
	defer cancelTimeout()
	runCtx, stop := context.WithCancelCause(timed)
	defer stop(nil)

	pr, pw := io.Pipe()
	stderr := &tail{max: 4096}
	p.Stdout, p.Stderr = pw, stderr
	cmd, err := p.Start(runCtx)
	if err != nil {
		return "", failure(KindSetup, err, "starting the agent CLI '%s': %v", o.Command, err)
	}
	waited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		if kerr := tools.KillGroup(cmd); kerr != nil {
			o.Log.Warn("killing what the agent CLI left running", "err", kerr.Error())
		}
		pw.Close()
		waited <- err
	}()

	line := lineFunc(o.Command, rec)
	var garbage int
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventLine)
	for sc.Scan() {
		err := line(sc.Bytes())
		var se *syntaxError
		if errors.As(err, &se) {
			garbage++
			o.Log.Debug("agent CLI printed a line that is not a JSON event", "err", se.err.Error())
			continue
		}
		if err != nil {
			stop(err)
			break
		}
	}
	if err := sc.Err(); err != nil {
		stop(failure(KindCLI, err, "reading the agent CLI's events: %v", err))
	}
	pr.Close() // a stopped reader must not block the copy Wait waits for
	waitErr := <-waited
	o.Log.Info("agent CLI ended", "command", o.Command, "turns", rec.turns, "tool_calls", rec.toolCalls,
		"exit", fmt.Sprint(waitErr), "stopped", fmt.Sprint(context.Cause(runCtx)))

	switch {
	case ctx.Err() != nil:
		return "", failure(KindCancelled, context.Cause(ctx), "cancelled: %v", context.Cause(ctx))
	case context.Cause(runCtx) != nil && !errors.Is(context.Cause(runCtx), context.DeadlineExceeded):
		return "", context.Cause(runCtx)
	case timed.Err() != nil:
		return "", failure(KindTimeout, timed.Err(), "the agent CLI did not finish within %s", o.Timeout)
	}
	var exit *exec.ExitError
	if waitErr != nil && !errors.Is(waitErr, exec.ErrWaitDelay) {
		msg := waitErr.Error()
		if errors.As(waitErr, &exit) {
			msg = exit.ProcessState.String()
		}
		return "", failure(KindCLI, waitErr, "the agent CLI '%s' failed (%s)%s", o.Command, msg, stderr.suffix())
	}
	switch {
	case rec.failure != "":
		return "", failure(KindCLI, nil, "%s", rec.failure)
	case rec.result == nil:
		what := "a result event"
		if codex(o.Command) {
			what = "an agent_message"
		}
		msg := fmt.Sprintf("the agent CLI '%s' exited without %s", o.Command, what)
		if garbage > 0 {
			msg += fmt.Sprintf(" (%d lines of its output were not JSON events)", garbage)
		}
		return "", failure(KindCLI, nil, "%s%s", msg, stderr.suffix())
	}
	return *rec.result, nil
}

// syntaxError marks a stdout line that is not a JSON event: skipped,
// counted for the error message if no result follows.
type syntaxError struct{ err error }

func (e *syntaxError) Error() string { return e.err.Error() }

// lineFunc is the dialect's handler of one stdout line.
func lineFunc(command string, rec *recorder) func([]byte) error {
	if codex(command) {
		st := &codexState{seen: map[string]bool{}}
		return func(b []byte) error {
			var ev codexEvent
			if err := json.Unmarshal(b, &ev); err != nil {
				return &syntaxError{err}
			}
			return st.line(rec, ev)
		}
	}
	return func(b []byte) error {
		var ev claudeEvent
		if err := json.Unmarshal(b, &ev); err != nil {
			return &syntaxError{err}
		}
		return claudeLine(rec, ev)
	}
}

// envValue is key's value in a KEY=VALUE environment ("" if absent).
func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// tail keeps the last max bytes written: the end of the CLI's stderr,
// for the error a failed run reports.
type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) suffix() string {
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	return "; its stderr ends: " + s
}
