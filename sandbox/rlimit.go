package sandbox

import (
	"fmt"
	"strconv"

	"github.com/mur-go/mur/policy"
)

// ExecMode is the hidden first argument that makes the mur binary act as
// the trampoline (see Main). It is not a command a user types.
const ExecMode = "__mur-sandbox-exec"

// Rlimits are the hard limits a native subprocess starts under; soft =
// hard, each clamped to the limit mur itself inherited, RLIMIT_CORE 0.
type Rlimits struct {
	// ExtraProcesses is added to the uid's live task count for
	// RLIMIT_NPROC (capabilities.resources.max_processes).
	ExtraProcesses uint64
	OpenFiles      uint64 // RLIMIT_NOFILE
	FileSizeBytes  uint64 // RLIMIT_FSIZE
	CPUSeconds     uint64 // RLIMIT_CPU
	// MemoryBytes is RLIMIT_AS on Linux, RLIMIT_DATA (best effort)
	// elsewhere.
	MemoryBytes uint64
}

// RlimitsFor takes the rlimit fields of the effective resources.
func RlimitsFor(r policy.EffectiveResources) Rlimits {
	return Rlimits{ExtraProcesses: r.MaxProcesses, OpenFiles: r.MaxOpenFiles, FileSizeBytes: r.MaxFileSizeBytes,
		CPUSeconds: r.CPUSeconds, MemoryBytes: r.MemoryBytes}
}

// String lists the limits as the bootstrap log records them.
func (l Rlimits) String() string {
	return fmt.Sprintf("RLIMIT_NPROC=<live tasks of the uid>+%d RLIMIT_NOFILE=%d RLIMIT_FSIZE=%d RLIMIT_CPU=%d %s=%d RLIMIT_CORE=0 (hard, soft = hard, clamped to mur's own hard limits)",
		l.ExtraProcesses, l.OpenFiles, l.FileSizeBytes, l.CPUSeconds, memoryLimitName, l.MemoryBytes)
}

// Trampoline starts native subprocesses under Limits and, on a kernel
// tier, Plan, through Self, a binary whose main hands ExecMode to Main
// (the mur binary).
type Trampoline struct {
	Self   string
	Limits Rlimits
	// Plan is the kernel containment the child applies before exec; nil
	// is rlimits only. A plan with NetNS needs the clone flags Wrap sets:
	// started otherwise, the child refuses to exec.
	Plan *Plan
	// Egress, with a NetNS plan, serves the namespace's allowed
	// connections and DNS (Wrap starts it for each command); nil leaves
	// the namespace with loopback only.
	Egress *Egress

	// diagFD is the child's descriptor of Start's diagnostic pipe.
	diagFD int
}

// Command returns what to exec instead of path with argv: Self in
// ExecMode, which applies the limits and the plan and then execs path
// with argv unchanged (argv[0] included); a failure is reported on
// stderr unless Start gave it a diagnostic pipe. Open descriptors the caller
// passes (a sealed memfd as fd 3) survive both execs when the plan keeps
// them. Callers that build an exec.Cmd use Start (or Wrap), which also
// creates the namespaces.
func (t Trampoline) Command(path string, argv []string) (string, []string) {
	l := t.Limits
	args := []string{t.Self, ExecMode, t.diagArg()}
	for _, v := range []uint64{l.ExtraProcesses, l.OpenFiles, l.FileSizeBytes, l.CPUSeconds, l.MemoryBytes} {
		args = append(args, strconv.FormatUint(v, 10))
	}
	args = append(args, encodePlan(t.Plan), path)
	return t.Self, append(args, argv...)
}

// parseArgs is Command's inverse: the arguments after ExecMode and the
// diagnostic pipe's.
func parseArgs(args []string) (Rlimits, *Plan, string, []string, error) {
	const n = 5
	if len(args) < n+3 {
		return Rlimits{}, nil, "", nil, fmt.Errorf("%s needs %d limits, a plan, a path and argv; got %d arguments", ExecMode, n, len(args))
	}
	var v [n]uint64
	for i := range v {
		x, err := strconv.ParseUint(args[i], 10, 64)
		if err != nil {
			return Rlimits{}, nil, "", nil, fmt.Errorf("%s: limit %d: %w", ExecMode, i, err)
		}
		v[i] = x
	}
	plan, err := decodePlan(args[n])
	if err != nil {
		return Rlimits{}, nil, "", nil, err
	}
	l := Rlimits{ExtraProcesses: v[0], OpenFiles: v[1], FileSizeBytes: v[2], CPUSeconds: v[3], MemoryBytes: v[4]}
	return l, plan, args[n+1], args[n+2:], nil
}
