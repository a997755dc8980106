package sandbox

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
)

// The mechanisms a session's cgroup scope is built with (security.md
// §12.2). CgroupV1 is mur-go's fallback where the unified hierarchy has
// no memory and pids controllers but the v1 hierarchies are writable: the
// same aggregate ceilings, in the v1 files.
const (
	CgroupV2 = "cgroup2"
	CgroupV1 = "cgroup1"
	// CgroupSystemd is what ProbeCgroup reports when the systemd user
	// manager answers on the session bus: the scope is built (v2, or v1
	// where the manager delegates those hierarchies) in the transient
	// scope it is asked for when a session starts (JoinSystemdScope).
	CgroupSystemd = "systemd"
)

// ErrNoCgroup is wrapped by every failure to build a session scope.
var ErrNoCgroup = errors.New("no cgroup scope")

// CgroupLimits are the aggregate ceilings of capabilities.resources that
// the scope writes for the whole subprocess tree of a session.
type CgroupLimits struct {
	MemoryBytes   uint64 // cgroup_memory_bytes
	PidsMax       uint64 // cgroup_pids_max
	CPUPercent    uint64 // cgroup_cpu_percent
	IOBytesPerSec uint64 // cgroup_io_bytes_per_sec, best effort
}

// CgroupSupport is what ProbeCgroup found: the mechanism a scope would be
// built with, or why none can be.
type CgroupSupport struct {
	// Mechanism is CgroupSystemd, CgroupV2, CgroupV1 or "" (none).
	Mechanism string
	// Reason says why there is no mechanism; Note what a v1 fallback
	// gives up, or where a CgroupSystemd scope falls back to (both empty
	// on a delegated v2 host).
	Reason, Note string
}

// CgroupCounters are the scope's limit events so far: the OOM kills of
// its memory ceiling and the forks its pids ceiling refused. The delta
// across one call attributes a kill to cgroup_memory_bytes or
// cgroup_pids_max (§12.4).
type CgroupCounters struct {
	OOMKills, PidsMax uint64
}

// Attribution is the resource_limit a counter delta names: the memory
// ceiling first, since an OOM kill ends the call while a refused fork may
// only have failed one command.
func (c CgroupCounters) Attribution(before CgroupCounters) string {
	switch {
	case c.OOMKills > before.OOMKills:
		return "cgroup_memory_bytes"
	case c.PidsMax > before.PidsMax:
		return "cgroup_pids_max"
	}
	return ""
}

// Cgroup is one session's scope (§12.2): a leaf per hierarchy (one on
// v2) holding the ceilings, whose cgroup.procs files stay open for the
// session so that every trampoline joins it before it execs. Close kills
// what is left in it and removes it.
//
// Nothing in it may outlive the session, however the runtime ends: each
// leaf is locked (flock) for as long as the runtime or its reaper lives,
// and marked with a scopeRecord once locked. The reaper, a process of
// its own outside the scope, kills and removes the scope when the
// runtime's end closes its lifeline pipe (by any death: SIGKILL, OOM
// kill, crash, os.Exit); SweepStaleScopes removes a marked scope whose
// locks are free (runtime and reaper both gone).
type Cgroup struct {
	mechanism string
	note      string
	// unit is the systemd user manager's transient scope the leaves are
	// built in ("" in an inherited cgroup).
	unit   string
	leaves []string
	procs  []*os.File
	// locks are the leaves' directories, flock'ed shared; the reaper
	// holds them too.
	locks  []*os.File
	reaper *reaper
	// memory and pids are the leaves whose event files Counters reads.
	memory, pids string
}

// CgroupRequest is what NewCgroup builds a scope for.
type CgroupRequest struct {
	// SessionID names the leaf (sanitised): murmur-<id>-<pid>-<serial>.
	SessionID string
	Limits    CgroupLimits
	// Workdir is the accessible workdir, whose device io.max throttles.
	Workdir string
	// Reaper is the binary the scope's reaper runs: one whose init hands
	// ReaperMode to the reaper (the mur binary, as Trampoline.Self). A
	// scope is never built without one.
	Reaper string
	// Log receives what the reaper's watch sees (a reaper that died and
	// was restarted); nil discards it.
	Log *slog.Logger
}

// Mechanism is CgroupV2 or CgroupV1.
func (c *Cgroup) Mechanism() string { return c.mechanism }

// Note says what a v1 scope gives up against v2 ("" on v2).
func (c *Cgroup) Note() string { return c.note }

// Unit is the systemd transient scope the leaves are in (JoinSystemdScope),
// "" when they are in the inherited cgroup.
func (c *Cgroup) Unit() string { return c.unit }

// Dirs are the scope's leaf directories.
func (c *Cgroup) Dirs() []string { return append([]string{}, c.leaves...) }

// leafName is the spec's murmur-<sanitised session id>-<pid>-<serial>.
func leafName(sessionID string, serial int) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '-'
	}, sessionID)
	return fmt.Sprintf("murmur-%s-%d-%d", clean, os.Getpid(), serial)
}

// CgroupError is why no scope could be built; it wraps ErrNoCgroup.
type CgroupError struct{ Reason string }

func (e *CgroupError) Error() string { return e.Reason }
func (e *CgroupError) Unwrap() error { return ErrNoCgroup }

func noCgroup(reason string) error { return &CgroupError{Reason: reason} }

// StaleScope is a session scope whose runtime and reaper were both gone,
// as SweepStaleScopes found and removed it.
type StaleScope struct {
	// Name is the leaf name, Owner the pid its runtime had.
	Name  string
	Owner int
	// Dirs are the leaves that were still there.
	Dirs []string
	// Killed counts the processes that were still running in it.
	Killed int
	// Err says why a leaf stayed; nil when all were removed.
	Err error
}

func (s StaleScope) String() string {
	what := fmt.Sprintf("%s (mur pid %d, %d process(es) killed)", s.Name, s.Owner, s.Killed)
	if s.Err != nil {
		return what + ": " + s.Err.Error()
	}
	return what
}
