// Package sandbox applies the per-process containment of native
// subprocesses (security.md §9.4, §12.1). What it does today: hard
// rlimits. Go cannot run code between fork and exec, so the limits are set
// by a trampoline: the runtime starts its own binary in a hidden mode
// (ExecMode) that sets the limits on itself and then execs the tool, which
// inherits them. The kernel tiers (Landlock, seccomp, namespaces) and the
// cgroup scope are not implemented yet; policy refuses a capsule that
// declares what would need them.
package sandbox
