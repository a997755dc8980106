package sandbox

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/policy"
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
	// LiveTasks is that count, taken once at launch by RlimitsFor (§12:
	// "at launch"); 0 counts it again at each spawn, walking /proc.
	LiveTasks     uint64
	OpenFiles     uint64 // RLIMIT_NOFILE
	FileSizeBytes uint64 // RLIMIT_FSIZE
	CPUSeconds    uint64 // RLIMIT_CPU
	// MemoryBytes is RLIMIT_AS on Linux, RLIMIT_DATA (best effort)
	// elsewhere.
	MemoryBytes uint64
}

// RlimitsFor takes the rlimit fields of the effective resources and the
// uid's live task count now.
func RlimitsFor(r policy.EffectiveResources) Rlimits {
	return Rlimits{ExtraProcesses: r.MaxProcesses, LiveTasks: liveTasks(), OpenFiles: r.MaxOpenFiles,
		FileSizeBytes: r.MaxFileSizeBytes, CPUSeconds: r.CPUSeconds, MemoryBytes: r.MemoryBytes}
}

// processes is RLIMIT_NPROC's value.
func (l Rlimits) processes() uint64 {
	live := l.LiveTasks
	if live == 0 {
		live = liveTasks()
	}
	return live + l.ExtraProcesses
}

// String lists the limits as the bootstrap log records them.
func (l Rlimits) String() string {
	return fmt.Sprintf("RLIMIT_NPROC=<live tasks of the uid>+%d RLIMIT_NOFILE=%d RLIMIT_FSIZE=%d RLIMIT_CPU=%d %s=%d RLIMIT_CORE=0 (hard, soft = hard, clamped to mur's own hard limits)",
		l.ExtraProcesses, l.OpenFiles, l.FileSizeBytes, l.CPUSeconds, memoryLimitName, l.MemoryBytes)
}

// Trampoline starts native subprocesses under Limits and, on a kernel
// tier, Plan, through Self, a binary that links this package, whose init
// hands ExecMode to Main (the mur binary).
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
	// Cgroup is the session's scope, which the child joins right after
	// the rlimits (Wrap passes its cgroup.procs descriptors); nil joins
	// none.
	Cgroup *Cgroup
	// Guard is the session's workdir guard: once it latched, Refusal
	// refuses every spawn; nil never refuses.
	Guard *WorkdirGuard

	// diagFD is the child's descriptor of Start's diagnostic pipe.
	diagFD int
	// cgroupFDs are the child's descriptors of Cgroup's cgroup.procs,
	// set by Wrap on its copy.
	cgroupFDs []int
}

// Refusal is why no subprocess may start now (the workdir ceiling was
// crossed), nil when one may.
func (t Trampoline) Refusal() error {
	return t.Guard.Breach()
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
	for _, v := range []uint64{l.processes(), l.OpenFiles, l.FileSizeBytes, l.CPUSeconds, l.MemoryBytes} {
		args = append(args, strconv.FormatUint(v, 10))
	}
	args = append(args, encodeFDs(t.cgroupFDs), encodePlan(t.Plan), path)
	return t.Self, append(args, argv...)
}

// childArgs are the trampoline's arguments after ExecMode, decoded.
type childArgs struct {
	// limits has RLIMIT_NPROC's whole value in ExtraProcesses.
	limits    Rlimits
	cgroupFDs []int
	plan      *Plan
	path      string
	argv      []string
}

// parseArgs is Command's inverse: the arguments after ExecMode and the
// diagnostic pipe's.
func parseArgs(args []string) (childArgs, error) {
	const n = 5
	if len(args) < n+4 {
		return childArgs{}, fmt.Errorf("%s needs %d limits, the cgroup descriptors, a plan, a path and argv; got %d arguments", ExecMode, n, len(args))
	}
	var v [n]uint64
	for i := range v {
		x, err := strconv.ParseUint(args[i], 10, 64)
		if err != nil {
			return childArgs{}, fmt.Errorf("%s: limit %d: %w", ExecMode, i, err)
		}
		v[i] = x
	}
	fds, err := decodeFDs(args[n])
	if err != nil {
		return childArgs{}, err
	}
	plan, err := decodePlan(args[n+1])
	if err != nil {
		return childArgs{}, err
	}
	l := Rlimits{ExtraProcesses: v[0], OpenFiles: v[1], FileSizeBytes: v[2], CPUSeconds: v[3], MemoryBytes: v[4]}
	return childArgs{limits: l, cgroupFDs: fds, plan: plan, path: args[n+2], argv: args[n+3:]}, nil
}

// encodeFDs is the comma list of descriptors; "-" is none.
func encodeFDs(fds []int) string {
	if len(fds) == 0 {
		return "-"
	}
	s := make([]string, len(fds))
	for i, fd := range fds {
		s[i] = strconv.Itoa(fd)
	}
	return strings.Join(s, ",")
}

func decodeFDs(s string) ([]int, error) {
	if s == "-" {
		return nil, nil
	}
	var fds []int
	for _, f := range strings.Split(s, ",") {
		fd, err := strconv.Atoi(f)
		if err != nil || fd < 3 {
			return nil, fmt.Errorf("%s: cgroup descriptor %q", ExecMode, f)
		}
		fds = append(fds, fd)
	}
	return fds, nil
}
