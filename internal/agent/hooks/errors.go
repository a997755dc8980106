package hooks

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/tools"
)

// Kind says why a hook could not be set up, so callers can branch.
type Kind int

// The kinds of setup failure; each is fatal to the session (wit.md §6.2).
const (
	// KindInstantiate: the component could not be instantiated.
	KindInstantiate Kind = iota + 1
	// KindMissingExport: no hosted murmur:hook/lifecycle instance.
	KindMissingExport
	// KindUnhostedVersion: a lifecycle version this runtime does not host.
	KindUnhostedVersion
	// KindMissingFunction: a required lifecycle function is absent.
	KindMissingFunction
)

// Error is a hook setup failure, worded as Murmur words it.
type Error struct {
	Hook string
	Kind Kind
	Err  error
	msg  string
}

func (e *Error) Error() string { return e.msg }
func (e *Error) Unwrap() error { return e.Err }

const rebuildHint = "(run `mur install` for a default artifact, or rebuild from source otherwise)"

func errInstantiate(h *hookSpec, err error) *Error {
	return &Error{Hook: h.name, Kind: KindInstantiate, Err: err,
		msg: fmt.Sprintf("failed to instantiate hook %s@%s: %v", h.name, h.version, trapText(err))}
}

// errMissingExport: the seeds' wording for a hook exporting only the bare
// unversioned name, the repository's for one exporting nothing we know.
func errMissingExport(h *hookSpec, unversioned bool) *Error {
	want := hostedVersions[0].Instance()
	if unversioned {
		return &Error{Hook: h.name, Kind: KindMissingExport,
			msg: fmt.Sprintf("hook %s@%s missing export %s; rebuild the hook against the versioned WIT %s", h.name, h.version, want, rebuildHint)}
	}
	return &Error{Hook: h.name, Kind: KindMissingExport,
		msg: fmt.Sprintf("hook %s@%s does not export %s; rebuild the hook against the current WIT %s", h.name, h.version, want, rebuildHint)}
}

func errUnhosted(h *hookSpec, found string) *Error {
	return &Error{Hook: h.name, Kind: KindUnhostedVersion,
		msg: fmt.Sprintf("hook %s@%s exports %s, a version this runtime does not host (it hosts %s); rebuild the hook against one of those %s",
			h.name, h.version, found, hostedList(), rebuildHint)}
}

func errMissingFunction(h *hookSpec, v Version, fn string) *Error {
	return &Error{Hook: h.name, Kind: KindMissingFunction,
		msg: fmt.Sprintf("hook %s@%s missing function %s#%s", h.name, h.version, v.Instance(), fn)}
}

// callFailure words a failed lifecycle call (wit.md §7.3): subject is
// "hook '<name>' <fn>".
func callFailure(subject string, limits component.Limits, err error) string {
	var (
		lim *component.LimitError
		dl  *component.DeadlineError
	)
	switch {
	case errors.As(err, &lim) && lim.Limit != component.LimitInstances:
		_, detail := tools.LimitDetail(lim)
		return fmt.Sprintf("%s exceeded its configured resource limits: %s", subject, detail)
	case errors.As(err, &dl):
		d := dl.Deadline
		if d == 0 {
			d = limits.Deadline
		}
		return fmt.Sprintf("%s exceeded its %s execution deadline (capabilities.limits.deadline_seconds) and was interrupted", subject, component.FormatSeconds(d))
	}
	return fmt.Sprintf("%s trapped: %s", subject, trapText(err))
}

// trapText is an engine error without its stack trace.
func trapText(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "\n"); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimSuffix(msg, " (recovered by wazero)")
}
