package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/diag"
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

func TestCheckContainment(t *testing.T) {
	envOnly := CurrentHost(Sealed, nil)
	for _, tc := range []struct {
		name        string
		floor       Class
		declared    bool
		host        Host
		workdirExec bool
		want        string // "" = allowed
	}{
		{"undeclared is never gated", Sealed, false, envOnly, false, ""},
		{"advisory always holds", Advisory, true, envOnly, true, ""},
		{"sealed on mur-go", Sealed, true, envOnly, false,
			"declared containment class 'sealed' is not achievable on this host (achieved: 'advisory'): kernel containment (Landlock, seccomp, mount namespaces) is not implemented in mur-go yet"},
		{"scoped on mur-go", Scoped, true, envOnly, false, "class 'scoped' is not achievable on this host (achieved: 'advisory')"},
		{"workdir_exec reason first", Scoped, true, Host{Tier: TierKernelFull}, true, "(achieved: 'advisory'): capabilities.filesystem.workdir_exec is true"},
		{"kernel full holds scoped", Scoped, true, Host{Tier: TierKernelFull}, false, ""},
		{"kernel full below sealed", Sealed, true, Host{Tier: TierKernelFull}, false, "(achieved: 'scoped'): the sealed class needs a private mount namespace"},
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

func TestContainmentFlag(t *testing.T) {
	for _, v := range []string{"", "advisory", "scoped", "sealed"} {
		if err := ContainmentFlag(v); err != nil {
			t.Errorf("%q refused: %v", v, err)
		}
	}
	err := ContainmentFlag("Sealed")
	want := "error[E-IO-003]: --containment must be one of: advisory, scoped, sealed; got 'Sealed'"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestCheckResources(t *testing.T) {
	for _, tc := range []struct {
		resources, code, want string
	}{
		{"", "", ""},
		{"{max_open_files: 10, max_file_size_bytes: 10, max_processes: 1, cpu_seconds: 1, memory_bytes: 1}", "", ""},
		{"{cgroup_cpu_percent: 50}", CodeNoCgroup, "capabilities.resources.cgroup_cpu_percent declared"},
		{"{cgroup_io_bytes_per_sec: 5, cgroup_memory_bytes: 5}", CodeNoCgroup, "capabilities.resources.cgroup_memory_bytes, capabilities.resources.cgroup_io_bytes_per_sec declared"},
		{"{workdir_max_bytes: 5}", CodeNoWorkdirGuard, "capabilities.resources.workdir_max_bytes declared"},
	} {
		src := "name: c\nversion: '1'\n"
		if tc.resources != "" {
			src += "capabilities:\n  resources: " + tc.resources + "\n"
		}
		err := CheckResources(parseCapsule(t, src).Capabilities)
		if tc.code == "" {
			if err != nil {
				t.Errorf("%s refused: %v", tc.resources, err)
			}
			continue
		}
		var d *diag.Error
		if !errors.As(err, &d) || d.Code != tc.code || !errors.Is(err, ErrNotEnforceable) || !strings.Contains(d.Msg, tc.want) || d.Hint == "" {
			t.Errorf("%s: err = %v, want %s containing %q", tc.resources, err, tc.code, tc.want)
		}
	}
}

func TestLaunchLine(t *testing.T) {
	c := parseCapsule(t, "name: c\nversion: '1'\ncapabilities:\n  shell: {allow: [git]}\n")
	ws := SecurityWarnings(c, CurrentHost(Advisory, nil))
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
