package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestFloor(t *testing.T) {
	for _, tc := range []struct {
		sources  []string
		want     Class
		declared bool
	}{
		{nil, Advisory, false},
		{[]string{"", ""}, Advisory, false},
		{[]string{"advisory", ""}, Advisory, true},
		{[]string{"scoped", "advisory"}, Scoped, true},
		{[]string{"scoped", "sealed"}, Sealed, true},
		{[]string{"", "sealed"}, Sealed, true},
	} {
		got, declared := Floor(tc.sources...)
		if got != tc.want || declared != tc.declared {
			t.Errorf("Floor(%q) = %s, %v; want %s, %v", tc.sources, got, declared, tc.want, tc.declared)
		}
	}
}

// Probed supports of the hosts the tests decide on.
var (
	notLinux   = HostSupport{Probed: true}
	noLandlock = HostSupport{Linux: true, Probed: true, Seccomp: true, LandlockErr: "ENOSYS", NetNS: true}
	kernelFull = HostSupport{Linux: true, Probed: true, LandlockABI: 7, Seccomp: true, NetNS: true,
		SealedBlocker: BlockerMountDenied, SealedErr: "mount tmpfs: operation not permitted"}
	kernelSealed = HostSupport{Linux: true, Probed: true, LandlockABI: 7, Seccomp: true, NetNS: true, Sealed: true}
)

func TestCheckContainment(t *testing.T) {
	host := func(s HostSupport) Host { return NewHost(s, Sealed, nil) }
	for _, tc := range []struct {
		name        string
		floor       Class
		declared    bool
		host        Host
		workdirExec bool
		want        string // "" = allowed
	}{
		{"undeclared is never gated", Sealed, false, host(notLinux), false, ""},
		{"advisory always holds", Advisory, true, host(notLinux), true, ""},
		{"scoped off Linux", Scoped, true, host(notLinux), false, "class 'scoped' is not achievable on this host (achieved: 'advisory'): this platform is not Linux"},
		{"unprobed host", Scoped, true, host(HostSupport{Linux: true}), false, "(achieved: 'advisory'): the host was not probed"},
		{"scoped without Landlock", Scoped, true, host(noLandlock), false, "(achieved: 'advisory'): the scoped class requires Landlock, which this kernel does not enforce (ENOSYS)"},
		{"sealed without Landlock", Sealed, true, host(HostSupport{Linux: true, Probed: true, Seccomp: true, NetNS: true, LandlockErr: "ENOSYS", SealedBlocker: BlockerLandlockMissing}), false,
			"(achieved: 'advisory'): LandlockUnavailable: the sealed class requires Landlock, which this kernel does not enforce (ENOSYS)"},
		{"sealed off Linux", Sealed, true, host(notLinux), false, "(achieved: 'advisory'): NotLinux: "},
		{"sealed under AppArmor", Sealed, true, host(HostSupport{Linux: true, Probed: true, LandlockABI: 7, Seccomp: true, NetNS: true, SealedBlocker: BlockerAppArmor}), false,
			"(achieved: 'scoped'): AppArmorProfileMissing: the sealed class needs a private mount namespace for its composed root, and AppArmor restricts unprivileged user namespaces"},
		{"sealed without an id map", Sealed, true, host(HostSupport{Linux: true, Probed: true, LandlockABI: 7, Seccomp: true, NetNS: true, SealedBlocker: BlockerIDMapDenied, SealedErr: "EPERM"}), false,
			"IdMapDenied: the sealed class needs a private mount namespace for its composed root, and the uid/gid map of a new user namespace could not be written (EPERM)"},
		{"kernel sealed holds sealed", Sealed, true, host(kernelSealed), false, ""},
		{"workdir_exec reason first", Scoped, true, host(kernelFull), true, "(achieved: 'advisory'): capabilities.filesystem.workdir_exec is true"},
		{"kernel full holds scoped", Scoped, true, host(kernelFull), false, ""},
		{"kernel full below sealed", Sealed, true, host(kernelFull), false,
			"(achieved: 'scoped'): MountDenied: the sealed class needs a private mount namespace for its composed root, and a child in a new user + mount namespace could not mount (mount tmpfs: operation not permitted)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckContainment(tc.floor, tc.declared, tc.host, tc.workdirExec)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var d *diag.Error
			if !errors.As(err, &d) || d.Code != CodeContainment || !errors.Is(err, ErrContainment) || !strings.Contains(d.Msg, tc.want) {
				t.Fatalf("err = %v, want E-CAP-003 containing %q", err, tc.want)
			}
			if !strings.HasPrefix(d.Hint, "lower the declared floor to '"+Achieved(tc.host, tc.workdirExec).String()+"'") {
				t.Errorf("hint %q", d.Hint)
			}
		})
	}
}

func TestTier(t *testing.T) {
	for _, tc := range []struct {
		s         HostSupport
		tier      Tier
		mechanism string
	}{
		{notLinux, TierEnvironmentOnly, "none"},
		{HostSupport{Linux: true}, TierEnvironmentOnly, "none"},
		{noLandlock, TierSeccompOnly, "seccomp-only"},
		{kernelFull, TierKernelFull, "landlock+seccomp"},
		{kernelSealed, TierKernelSealed, "mountns+pivot_root+landlock+seccomp"},
		{HostSupport{Linux: true, Probed: true, LandlockABI: 7, Seccomp: true, Sealed: true}, TierKernelFull, "landlock+seccomp"},
	} {
		if got := tc.s.Tier(); got != tc.tier || got.Mechanism() != tc.mechanism {
			t.Errorf("%+v: tier %s (%s), want %s (%s)", tc.s, got, got.Mechanism(), tc.tier, tc.mechanism)
		}
	}
}

// KernelSealed is applied only under a sealed floor; the mechanism named
// is always the host's (§9.1).
func TestAppliedTier(t *testing.T) {
	for _, tc := range []struct {
		floor Class
		want  Tier
		class Class
	}{
		{Advisory, TierKernelFull, Scoped},
		{Scoped, TierKernelFull, Scoped},
		{Sealed, TierKernelSealed, Sealed},
	} {
		h := NewHost(kernelSealed, tc.floor, nil)
		if h.Tier != tc.want || h.HostTier != TierKernelSealed || Achieved(h, false) != tc.class {
			t.Errorf("floor %s: applied %s, host %s, achieved %s; want %s, KernelSealed, %s", tc.floor, h.Tier, h.HostTier, Achieved(h, false), tc.want, tc.class)
		}
	}
}

func TestCapRefusals(t *testing.T) {
	noNS := HostSupport{Linux: true, Probed: true, LandlockABI: 7, Seccomp: true, NetNSErr: "operation not permitted", NetNSReason: NetNSGrantMissing}
	for _, tc := range []struct {
		name, caps string
		floor      Class
		support    HostSupport
		code       diag.Code
		want       string
	}{
		{"staged runtime below sealed", "shell: {allow: [python3], staged_runtime: [{binary: python3, source_path: /opt/py, pin: x}]}", Scoped, kernelFull,
			CodeStagedRuntime, "staged_runtime grants for python3 are bound into the sealed root only, but the declared containment floor is 'scoped'"},
		{"shell without a network namespace", "shell: {allow: [git]}", Advisory, noNS,
			CodeNoNetNS, "cannot be enforced for it: CapabilityGrantMissing: operation not permitted"},
		{"spawn without a network namespace", "spawn: {allow: [git]}", Advisory, noNS, CodeNoNetNS, "own network namespace"},
		{"empty network.allow is still gated", "shell: {allow: [git]}\n  network: {allow: []}", Advisory, noNS, CodeNoNetNS, "own network namespace"},
		{"native-only capsule is not gated", "resources: {max_processes: 4}", Advisory, noNS, "", ""},
		{"not Linux is not gated", "shell: {allow: [git]}", Advisory, notLinux, "", ""},
		{"namespace available", "shell: {allow: [git]}", Advisory, kernelFull, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := parseCapsule(t, "name: c\nversion: '1'\ncapabilities:\n  "+tc.caps+"\n").Capabilities
			err := CheckStagedRuntime(c, tc.floor)
			if err == nil {
				err = CheckNetNS(c, tc.support)
			}
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var d *diag.Error
			if !errors.As(err, &d) || d.Code != tc.code || !strings.Contains(d.Msg, tc.want) || d.Hint == "" {
				t.Fatalf("err = %v, want %s containing %q", err, tc.code, tc.want)
			}
		})
	}
}

func TestContainmentFlag(t *testing.T) {
	for _, v := range []string{"", "advisory", "scoped", "sealed"} {
		if err := ContainmentFlag(v); err != nil {
			t.Errorf("%q refused: %v", v, err)
		}
	}
	err := ContainmentFlag("Sealed")
	want := "error[E-IO-003]: --containment must be one of: advisory, scoped, sealed; got 'Sealed'"
	if err == nil || !strings.HasPrefix(diag.Render(err), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// Every capabilities.resources field is enforced now, so none is refused;
// what is refused is a capsule that can spawn a subprocess (an agent CLI
// included) on a Linux host where no cgroup scope can be built.
func TestCheckCgroup(t *testing.T) {
	v1 := HostSupport{Linux: true, Cgroup: "cgroup1"}
	none := HostSupport{Linux: true, CgroupErr: "no cgroup v2 hierarchy is mounted"}
	for _, tc := range []struct {
		name, caps string
		host       HostSupport
		refused    bool
	}{
		{"cgroup and workdir fields", "resources: {cgroup_cpu_percent: 50, cgroup_memory_bytes: 5, workdir_max_bytes: 5}", none, false},
		{"shell with a v1 scope", "shell: {allow: [ls]}", v1, false},
		{"shell with none", "shell: {allow: [ls]}", none, true},
		{"spawn with none", "spawn: {allow: [ls]}", none, true},
		{"shell off Linux", "shell: {allow: [ls]}", HostSupport{}, false},
		{"agent CLI with a v1 scope", "cli", v1, false},
		{"agent CLI with none", "cli", none, true},
		{"a systemd scope", "shell: {allow: [ls]}", HostSupport{Linux: true, Cgroup: "systemd"}, false},
		{"shell with none, turned off", "shell: {allow: [ls]}", none.WithoutCgroup(), false},
		{"agent CLI with v1, turned off", "cli", v1.WithoutCgroup(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "name: c\nversion: '1'\ncapabilities:\n  " + tc.caps + "\n"
			if tc.caps == "cli" {
				src = "name: c\nversion: '1'\ninference:\n  transport: process\n  command: claude\n"
			}
			err := CheckCgroup(parseCapsule(t, src), tc.host)
			var d *diag.Error
			switch {
			case !tc.refused && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused && (!errors.As(err, &d) || d.Code != CodeNoCgroup || !errors.Is(err, ErrNoCgroup) ||
				!strings.Contains(d.Msg, "no cgroup v2 scope could be created to bound them (no cgroup v2 hierarchy is mounted)") || d.Hint == ""):
				t.Fatalf("err = %v, want E-RUN-012 with the reason", err)
			}
		})
	}
}

// The operator's --no-cgroup leaves no scope even where one could be
// built, and W-SEC-010 names it as the reason.
func TestWithoutCgroup(t *testing.T) {
	c := parseCapsule(t, "name: c\nversion: '1'\ncapabilities:\n  shell: {allow: [git]}\n")
	for _, s := range []HostSupport{{Linux: true, Cgroup: "cgroup1", CgroupNote: "v1"}, {Linux: true, CgroupErr: "none here"}} {
		off := s.WithoutCgroup()
		if off.Cgroup != "" || off.CgroupNote != "" || !off.CgroupOff || off.CgroupErr != CgroupOffReason {
			t.Errorf("%+v without a cgroup is %+v", s, off)
		}
		var w10 []string
		for _, w := range SecurityWarnings(c, NewHost(off, Advisory, nil)) {
			if w.Code == "W-SEC-010" {
				w10 = append(w10, w.Msg)
			}
		}
		if len(w10) != 1 || !strings.Contains(w10[0], "but "+CgroupOffReason+", so nothing bounds the subprocess tree as a whole") {
			t.Errorf("W-SEC-010 %q does not name the operator's downgrade", w10)
		}
	}
}

func TestLaunchLine(t *testing.T) {
	c := parseCapsule(t, "name: c\nversion: '1'\ncapabilities:\n  shell: {allow: [git]}\n")
	ws := SecurityWarnings(c, NewHost(HostSupport{Linux: true}, Advisory, nil))
	var inLog []string
	for _, w := range ws {
		if InBootstrapLog(w) {
			inLog = append(inLog, LaunchLine(BootstrapPrefix, w))
		}
	}
	if len(inLog) != 2 || !strings.HasPrefix(inLog[0], "[capability-policy] warning[W-SEC-001]: capabilities.shell.allow is non-empty, but ") ||
		!strings.HasSuffix(inLog[0], " (https://docs.murmur.nexus/murmur-nexus/murmur/reference/diagnostics/#w-sec-001)") ||
		!strings.HasPrefix(inLog[1], "[capability-policy] warning[W-SEC-010]: ") {
		t.Errorf("bootstrap lines:\n%s", strings.Join(inLog, "\n"))
	}
}
