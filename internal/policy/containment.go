package policy

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
)

// Class is a containment class (security.md §10), weakest first.
type Class int

// The classes, in the order the floor compares them.
const (
	Advisory Class = iota
	Scoped
	Sealed
)

// Codes of the containment decisions.
const (
	CodeContainment   diag.Code = "E-CAP-003" // declared floor above the achieved class
	CodeStagedRuntime diag.Code = "E-CAP-004" // staged_runtime below the sealed floor
	CodeNoNetNS       diag.Code = "E-CAP-005" // no network namespace for the subprocess tree
	CodeBadFlag       diag.Code = "E-IO-003"  // --containment value
)

// ErrContainment is wrapped by every E-CAP-003 refusal.
var ErrContainment = errors.New("declared containment class is not achievable")

func (c Class) String() string {
	switch c {
	case Scoped:
		return "scoped"
	case Sealed:
		return "sealed"
	}
	return "advisory"
}

// ParseClass reads a class name; "" is not one.
func ParseClass(s string) (Class, bool) {
	for _, c := range []Class{Advisory, Scoped, Sealed} {
		if s == c.String() {
			return c, true
		}
	}
	return Advisory, false
}

// ContainmentFlag checks a `--containment` value ("" = not given).
func ContainmentFlag(v string) error {
	if _, ok := ParseClass(v); ok || v == "" {
		return nil
	}
	return &diag.Error{Code: CodeBadFlag,
		Msg:  fmt.Sprintf("--containment must be one of: advisory, scoped, sealed; got '%s'", v),
		Hint: "pass --containment advisory, scoped or sealed, or leave it out to use the manifest's declaration"}
}

// Floor is the effective declared floor: the strongest of the sources
// given (the manifest's capabilities.containment, the --containment flag;
// "" = absent), advisory when none is (security.md §10.1). It reports
// whether anything was declared at all: an undeclared floor is never
// gated.
func Floor(sources ...string) (Class, bool) {
	floor, declared := Advisory, false
	for _, s := range sources {
		if c, ok := ParseClass(s); ok {
			floor, declared = max(floor, c), true
		}
	}
	return floor, declared
}

// Achieved is the class this host can hold the capsule to: the class of
// the applied tier, capped to advisory when the workdir is executable
// (security.md §10.2).
func Achieved(h Host, workdirExec bool) Class {
	if workdirExec {
		return Advisory
	}
	switch h.Tier {
	case TierKernelSealed:
		return Sealed
	case TierKernelFull:
		return Scoped
	}
	return Advisory
}

// CheckContainment refuses a declared floor the host cannot achieve with
// E-CAP-003; staging calls it before anything is resolved or created.
func CheckContainment(floor Class, declared bool, h Host, workdirExec bool) error {
	got := Achieved(h, workdirExec)
	if !declared || got >= floor {
		return nil
	}
	reason := h.Support.Gaps()[floor]
	if workdirExec {
		reason = "capabilities.filesystem.workdir_exec is true, so files the capsule writes into its workdir can be executed and no class above 'advisory' can hold"
	}
	return &diag.Error{Code: CodeContainment, Err: ErrContainment,
		Msg: fmt.Sprintf("declared containment class '%s' is not achievable on this host (achieved: '%s'): %s", floor, got, reason),
		Hint: fmt.Sprintf("lower the declared floor to '%s' (capabilities.containment in murmur.yaml, containment in .murmur/config.yaml, or --containment), or run on a host that provides '%s'",
			got, floor)}
}
