// Package sandbox applies the per-process containment of native
// subprocesses (security.md §9, §10, §12.1). Go cannot run code between
// fork and exec, so it is done by a trampoline: the runtime starts its
// own binary in a hidden mode (ExecMode) that applies everything to
// itself and then execs the tool, which inherits it. The mode is taken in
// this package's init (exec_init.go), before the rest of the binary is
// initialised, so a spawn pays for little more than the Go runtime and
// sandbox's own dependencies (arch_test keeps those few). In order
// (§9.4): hard rlimits; joining the session's cgroup scope through the
// cgroup.procs descriptors the runtime opened (then closed); the network
// namespace (created by the clone flags Wrap puts on the trampoline: a
// new user + network namespace, ids mapped to the runtime's own, by the
// runtime when it is root and else by the trampoline itself as its first
// step there, since a non-root runtime cannot write the maps of a child
// of its non-dumpable process) is
// checked, its loopback raised and, with egress, its listeners handed to
// the runtime; at the sealed tier the composed root (a mount namespace of
// its own, also from the clone flags: every source opened O_PATH first,
// cloned with open_tree and attached with move_mount into a tmpfs, the
// synthetic passwd and group written to the workdir's .mur-etc, /tmp
// bound from its .mur-tmp, a private /dev, /proc, then pivot_root and the
// old root detached), or at scoped, where the host's sealed probe passed
// and workdir_exec is not granted, the workdir bound onto itself noexec
// in a private mount namespace (the same clone flags and bind), so the
// allowlisted ELF loader cannot map a binary the capsule wrote; every fd from 3 up but the kept ones marked
// close-on-exec; capabilities dropped and no_new_privs set; the seccomp
// filter (go-seccomp-bpf); Landlock (go-landlock) with the Plan's rules.
// Start gives the trampoline the write end of a close-on-exec pipe: EOF
// at exec is success, and any failure (a cgroup join as much as a
// Landlock rule) is written there (at most 1024 bytes) and returned as a
// SetupError; the tool never runs. A detail starting SealedRootPrefix is
// session-fatal (SetupError.Fatal, E-RUN-014).
//
// Scope turns what a session grants into a Plan (the Landlock rules
// include each allowed binary's ELF loader and DT_NEEDED closure; at
// sealed the root's binds and the sealed rules of §9.2); Prober runs the
// live host probes through the same trampoline, the sealed one cloned
// into user, network and mount namespaces and mounting there; Egress
// serves a namespace's allowed connections and DNS from the host side
// (§3.4: the child routes every address to lo and hands its listeners
// over a lifeline socket). Cgroup is the session's scope (§12.2), built
// in the cgroup the process sits in: the transient scope
// JoinSystemdScope asked the systemd user manager for over the session
// bus (Delegate=yes), else the inherited one; cgroup
// v2 where a delegated subtree has the memory, pids and cpu controllers,
// else a leaf in each of the cgroup v1 memory, pids and cpu hierarchies
// (mur-go's fallback for hybrid hosts, see SECURITY.md), else none and
// why (ProbeCgroup); its OOM-kill and pids.max counters attribute a kill
// (§12.4), and Close kills what is left and removes it. Nothing in a
// scope outlives the runtime, however it ends: the leaves are flock'ed
// for as long as the runtime or the scope's reaper lives (a re-exec in
// ReaperMode, taken in init like the trampoline, outside the scope, that
// kills and removes the scope when its lifeline pipe from the runtime
// reaches EOF), and SweepStaleScopes (every run, mur doctor) removes a
// marked scope whose locks are free. A parent-death signal is not used:
// it reaches only the direct child, is cleared by fork (a daemon never
// has it) and, in Go, fires when the forking OS thread exits rather than
// the process. Draining sets pids.max to 0 first, so a tree cannot fork
// faster than it is killed. WorkdirGuard is
// §12.3's walk of the workdir: once past workdir_max_bytes it latches and
// Trampoline.Refusal refuses every later spawn.
package sandbox
