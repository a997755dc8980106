package hooks

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/tools"
)

// Kind says why a hook could not be set up, so callers can branch: every
// setup failure is marked with its kind (errors.Is(err, KindMissingExport),
// or KindOf).
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

// Error makes a Kind a mark in a failure's chain; it is never the text a
// user sees.
func (k Kind) Error() string { return "hook setup failure kind " + strconv.Itoa(int(k)) }

// KindOf is the kind err is marked with, 0 for none.
func KindOf(err error) Kind {
	var k Kind
	errors.As(err, &k)
	return k
}

// CodeSetup is Murmur's E-RUN-001: a hook that cannot be set up fails the
// session.
const CodeSetup diag.Code = "E-RUN-001"

const (
	rebuildHint = "(run `mur install` for a default artifact, or rebuild from source otherwise)"
	logHint     = "logs/hook-<name>.log in the session directory has the hook's own errors"
)

// setupFailed is a hook setup failure, worded as Murmur words it.
func setupFailed(kind Kind, cause error, format string, args ...any) *diag.Error {
	return diag.Wrap(CodeSetup, diag.Mark(cause, kind), format, args...).WithHint(logHint)
}

func errInstantiate(h *hookSpec, err error) *diag.Error {
	return setupFailed(KindInstantiate, err, "failed to instantiate hook %s@%s: %v", h.name, h.version, trapText(err))
}

// errMissingExport: the seeds' wording for a hook exporting only the bare
// unversioned name, the repository's for one exporting nothing we know.
func errMissingExport(h *hookSpec, unversioned bool) *diag.Error {
	want := hostedVersions[0].Instance()
	if unversioned {
		return setupFailed(KindMissingExport, nil, "hook %s@%s missing export %s; rebuild the hook against the versioned WIT %s", h.name, h.version, want, rebuildHint)
	}
	return setupFailed(KindMissingExport, nil, "hook %s@%s does not export %s; rebuild the hook against the current WIT %s", h.name, h.version, want, rebuildHint)
}

func errUnhosted(h *hookSpec, found string) *diag.Error {
	return setupFailed(KindUnhostedVersion, nil, "hook %s@%s exports %s, a version this runtime does not host (it hosts %s); rebuild the hook against one of those %s",
		h.name, h.version, found, hostedList(), rebuildHint)
}

func errMissingFunction(h *hookSpec, v Version, fn string) *diag.Error {
	return setupFailed(KindMissingFunction, nil, "hook %s@%s missing function %s#%s", h.name, h.version, v.Instance(), fn)
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
