package launch

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/tools"
)

// Diagnostic codes the launcher reports (Murmur's, so scripts keep working).
const (
	CodeRun         diag.Code = "E-RUN-001" // capsule trap, deadline, limit, missing export, compile
	CodeUnlinked    diag.Code = "E-RUN-002" // the capsule imports something the host does not link
	CodeNoComponent diag.Code = "E-RUN-004" // no script component beside murmur.yaml
	CodeIO          diag.Code = "E-IO-003"  // the launcher could not set the session up
)

// Marks of how a failed run ends (diag.Mark), read by session.StatusOf;
// a failure with neither ends failed.
var (
	// ErrCancelled marks a run an interrupt, a signal or its caller
	// stopped: it must never read as ok.
	ErrCancelled = errors.New("capsule run cancelled")
	// ErrTrapped marks a capsule that trapped, ran out of its deadline or
	// grew past a limit.
	ErrTrapped = errors.New("capsule trapped")
)

// missingExport is Murmur's exact text (wit.md §2.1), for an absent
// instance, an absent run, and a capsule built against the unversioned
// name alike.
func missingExport(hint string) *diag.Error {
	return &diag.Error{Code: CodeRun, Hint: hint,
		Msg: "capsule component missing export murmur:capsule/run@0.1.0#run; rebuild the artifact against the versioned WIT (run `mur install` for a default artifact, or rebuild from source otherwise)"}
}

func deadlineExceeded(d time.Duration, cause error) *diag.Error {
	return &diag.Error{Code: CodeRun, Err: diag.Mark(cause, ErrTrapped),
		Msg:  fmt.Sprintf("capsule execution exceeded its %s deadline and was interrupted", component.FormatSeconds(d)),
		Hint: "raise capabilities.limits.deadline_seconds in murmur.yaml if the capsule legitimately needs longer"}
}

// classify maps what instantiating or running the capsule returned to
// Murmur's classes, in its order: a refused growth first, then the
// deadline, then everything else. instantiating marks failures before the
// guest's run started, where a link mismatch is E-RUN-002.
func classify(err error, limits component.Limits, instantiating bool) *diag.Error {
	var (
		lim  *component.LimitError
		dl   *component.DeadlineError
		link *component.LinkError
		exit *wasip2.ExitError
	)
	switch {
	case errors.As(err, &lim) && lim.Limit != component.LimitInstances:
		key, detail := tools.LimitDetail(lim)
		return &diag.Error{Code: CodeRun, Err: diag.Mark(err, ErrTrapped), Hint: tools.LimitHint(key),
			Msg: "capsule execution exceeded its configured resource limits: " + detail}
	case errors.As(err, &dl):
		d := dl.Deadline
		if d == 0 {
			d = limits.Deadline
		}
		return deadlineExceeded(d, err)
	case errors.As(err, &exit):
		return &diag.Error{Code: CodeRun, Err: err,
			Msg:  fmt.Sprintf("capsule run failed: the capsule exited with status %d", exit.Code),
			Hint: "the capsule reported the failure itself; see its output above and the files it wrote"}
	case instantiating && errors.As(err, &link):
		return unlinked(link)
	}
	return &diag.Error{Code: CodeRun, Err: diag.Mark(err, ErrTrapped),
		Msg: "capsule execution trapped: " + firstLine(err)}
}

// unlinked is E-RUN-002: the capsule imports an interface (or a version of
// one) the runtime does not provide.
func unlinked(link *component.LinkError) *diag.Error {
	msg := "capsule requires a WASI interface the runtime has not linked; check that the required capability is declared in murmur.yaml"
	if name := interfaceOf(link.Name); name != "" {
		msg += " (missing interface: " + name + ")"
	}
	return &diag.Error{Code: CodeUnlinked, Err: link, Msg: msg,
		Hint: "mur-go links WASI 0.2 and Murmur's interfaces under their versioned names only; " + link.Msg}
}

// interfaceOf is the instance part of "ns:pkg/iface@v#func".
func interfaceOf(name string) string {
	inst, _, _ := strings.Cut(name, "#")
	if !strings.Contains(inst, ":") && !strings.Contains(inst, "/") {
		return ""
	}
	return inst
}

// firstLine drops the engine's stack trace, so the message reads as the
// cause.
func firstLine(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "\n"); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimSuffix(msg, " (recovered by wazero)")
}
