package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/doctor"
	"github.com/mur-go/mur/internal/stage"
)

// This host (Linux with Landlock, seccomp and user + mount namespaces,
// as CI is) provides sealed; the reports must say so.
func TestDoctorReportsTheHost(t *testing.T) {
	t.Chdir(capsuleDir(t, "name: c\nversion: '1'\n", nil))
	o := mur(t, "doctor", "--json")
	if o.code != 0 {
		t.Fatalf("exit %d\n%s%s", o.code, o.stdout, o.stderr)
	}
	var r doctor.Report
	if err := json.Unmarshal([]byte(o.stdout), &r); err != nil {
		t.Fatalf("%v\n%s", err, o.stdout)
	}
	if r.Tier != "KernelSealed" || r.Mechanism != "mountns+pivot_root+landlock+seccomp" || r.Class != "sealed" || !r.Host.NetNS || !r.Host.Sealed || r.Host.LandlockABI == 0 {
		t.Errorf("report: %+v", r)
	}
	if len(r.Missing) != 0 {
		t.Errorf("missing: %+v", r.Missing)
	}
	// The cgroup scope's mechanism: v2 where delegated, v1 on a hybrid
	// host like this one, and why not v2.
	var cg *doctor.Check
	for i := range r.Checks {
		if r.Checks[i].Name == "cgroup scope" {
			cg = &r.Checks[i]
		}
	}
	if cg == nil || !cg.OK || r.Host.Cgroup == "" || !strings.HasPrefix(cg.Detail, r.Host.Cgroup+": ") {
		t.Errorf("cgroup check: %+v (host %q: %s)", cg, r.Host.Cgroup, r.Host.CgroupErr)
	}
	mur(t, "doctor").want(t, 0, "strongest containment class: sealed\n", "")
	mur(t, "doctor").want(t, 0, "✓  sealed mount namespace: ", "")
}

// A floor nothing can hold (workdir_exec caps every capsule to advisory)
// fails the doctor with its E-CAP-003.
func TestDoctorFailsOnARefusedCapsule(t *testing.T) {
	dir := capsuleDir(t, "name: c\nversion: '1'\ncapabilities:\n  containment: sealed\n  filesystem: {workdir_exec: true}\n", nil)
	t.Chdir(dir)
	mur(t, "doctor").want(t, 1, "containment: declared sealed, achieved advisory (floor NOT met: E-CAP-003: declared containment class 'sealed' is not achievable", "")
}

func TestExplainScope(t *testing.T) {
	dir := capsuleDir(t, "name: c\nversion: '1'\ncapabilities:\n  containment: scoped\n  shell: {allow: [git]}\n  network: {allow: [api.example.com], unix_sockets: true}\n  filesystem: {scope: data}\n", nil)
	m := filepath.Join(dir, "murmur.yaml")
	for _, tc := range []struct {
		name      string
		flags     []string
		floorMet  bool
		shortfall string
		achieved  string
		tier      string
	}{
		{"scoped holds", nil, true, "", "scoped", "KernelFull"},
		{"sealed holds", []string{"--containment", "sealed"}, true, "", "sealed", "KernelSealed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := mur(t, append([]string{"run", "--manifest", m, "--explain-scope", "--json"}, tc.flags...)...)
			if o.code != 0 {
				t.Fatalf("exit %d\n%s%s", o.code, o.stdout, o.stderr)
			}
			var g stage.EffectiveGrants
			if err := json.Unmarshal([]byte(o.stdout), &g); err != nil {
				t.Fatalf("%v\n%s", err, o.stdout)
			}
			// The mechanism is the host's whatever the applied tier (§9.1).
			shortfall := ""
			if g.ShortfallReason != nil {
				shortfall = *g.ShortfallReason
			}
			if g.FloorMet != tc.floorMet || !strings.HasPrefix(shortfall, tc.shortfall) || g.EnforcementTier != "mountns+pivot_root+landlock+seccomp" ||
				g.AchievedContainment != tc.achieved || g.Tier != tc.tier || g.FilesystemScope == nil || *g.FilesystemScope != "data" ||
				!g.UnixSockets || len(g.ShellAllow) != 1 || !g.Subprocess.NetworkNamespace {
				t.Errorf("report: %+v", g)
			}
			if _, err := os.Stat(filepath.Join(dir, "workdir")); err == nil {
				t.Error("--explain-scope created a workdir")
			}
		})
	}
	mur(t, "run", "--manifest", m, "--explain-scope").want(t, 0, "enforcement: KernelFull (host mechanism: mountns+pivot_root+landlock+seccomp)\n  landlock:  ABI ", "")
	mur(t, "run", "--manifest", m, "--explain-scope", "--containment", "sealed").want(t, 0,
		"enforcement: KernelSealed (host mechanism: mountns+pivot_root+landlock+seccomp)\n  root:      composed in a private mount namespace", "")
}

// --explain-scope with a --workdir says what the workdir holds that a
// later run trusts and whether a run would be refused for it.
func TestExplainScopeWorkdir(t *testing.T) {
	const agent = "name: c\nversion: '1'\ninference: {endpoint: 'http://localhost:9', model: m, driver: {artifact: d}}\nartifacts:\n  - {name: d, version: '1', runtime: driver}\n"
	for _, tc := range []struct {
		name, yaml string
		own        bool // a workdir of its own instead of the project
		want       stage.WorkdirReport
	}{
		{"shell in the project", agent + "capabilities: {shell: {allow: [sh]}}\n", false, stage.WorkdirReport{
			Holds:   []string{"the manifest (murmur.yaml)", ".env (.env)", "murmur.lock (murmur.lock)", "the project's artifact store (.murmur/artifacts)", "the project's .murmur/config.yaml (.murmur/config.yaml)"},
			Refusal: "E-CAP-002: workdir {dir} cannot be granted to this capsule: it holds what the runtime trusts at the next run: the manifest (murmur.yaml)"}},
		{"WASM guests in the project", agent, false, stage.WorkdirReport{
			Holds:           []string{"the manifest (murmur.yaml)", ".env (.env)", "murmur.lock (murmur.lock)", "the project's artifact store (.murmur/artifacts)", "the project's .murmur/config.yaml (.murmur/config.yaml)"},
			RefusedIfNative: true}},
		{"shell in a workdir of its own", agent + "capabilities: {shell: {allow: [sh]}}\n", true, stage.WorkdirReport{Holds: []string{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := capsuleDir(t, tc.yaml, nil)
			work := dir
			if tc.own {
				work = t.TempDir()
			}
			o := mur(t, "run", "--manifest", filepath.Join(dir, "murmur.yaml"), "--workdir", work, "--explain-scope", "--json")
			if o.code != 0 {
				t.Fatalf("exit %d\n%s%s", o.code, o.stdout, o.stderr)
			}
			var g stage.EffectiveGrants
			if err := json.Unmarshal([]byte(o.stdout), &g); err != nil {
				t.Fatalf("%v\n%s", err, o.stdout)
			}
			wd := g.Workdir
			want := strings.ReplaceAll(tc.want.Refusal, "{dir}", dir)
			if wd == nil || wd.Path != work || !slices.Equal(wd.Holds, tc.want.Holds) || !strings.HasPrefix(wd.Refusal, want) ||
				(want == "") != (wd.Refusal == "") || wd.RefusedIfNative != tc.want.RefusedIfNative {
				t.Errorf("workdir report: %+v\nwant %+v", wd, tc.want)
			}
			if _, err := os.Stat(filepath.Join(work, ".murmur")); err == nil {
				t.Error("--explain-scope created .murmur in the workdir")
			}
		})
	}
	dir := capsuleDir(t, agent+"capabilities: {shell: {allow: [sh]}}\n", nil)
	mur(t, "run", "--manifest", filepath.Join(dir, "murmur.yaml"), "--workdir", dir, "--explain-scope").want(t, 0,
		"workdir:          "+dir+"\n  holds what a later run trusts, hidden from WASM guests: the manifest (murmur.yaml), .env (.env)", "")
	mur(t, "run", "--manifest", filepath.Join(dir, "murmur.yaml"), "--workdir", dir, "--explain-scope").want(t, 0,
		"  REFUSED: E-CAP-002: workdir "+dir+" cannot be granted", "")
}
