package stage

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// A floor mur-go cannot hold is refused before any store is read: word-count is in no store, so reading one
// would end in E-RUN-008 instead.
func TestUnenforceableCapabilitiesRefusedFirst(t *testing.T) {
	for _, tc := range []struct {
		name, caps, flag string
		code             diag.Code
	}{
		{"manifest sealed", "capabilities:\n  containment: sealed\n", "", policy.CodeContainment},
		{"manifest scoped", "capabilities:\n  containment: scoped\n", "", policy.CodeContainment},
		{"flag sealed", "", "sealed", policy.CodeContainment},
		{"bad flag", "", "strict", policy.CodeBadFlag},
		{"cgroup fields pass to the store lookup", "capabilities:\n  resources: {cgroup_pids_max: 4, workdir_max_bytes: 4}\n", "", CodeMissing},
		{"advisory passes to the store lookup", "capabilities:\n  containment: advisory\n", "advisory", CodeMissing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(f.capsule(scriptCapsule + tc.caps))
			opts.Containment = tc.flag
			_, err := Stage(context.Background(), opts)
			if codeOf(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
			if exists(filepath.Join(f.project, "workdir")) || exists(filepath.Join(f.project, "murmur.lock")) || f.comp.n.Load() != 0 {
				t.Fatal("something was created or compiled before the refusal")
			}
		})
	}
}

// A native tool runs outside any kernel sandbox and any cgroup scope:
// staging says so (W-SEC-010) and records it with the rlimits in
// logs/bootstrap.log.
func TestSecurityWarningsAndBootstrapLog(t *testing.T) {
	f := newFixture(t)
	plat, err := artifact.ParsePlatform(artifact.CurrentPlatform())
	if err != nil {
		plat = artifact.Platform{OS: "linux", Arch: "x86_64"}
	}
	f.publish(f.local, "greet", "0.1.0", artifact.Native, "tool",
		testguest.Zip(t, "murmur.yaml", "name: greet\nversion: \"0.1.0\"\nruntime: tool\nimplementation: native\n", "bin/greet", "#!/bin/sh\n"), &plat)
	opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: greet, version: \"0.1.0\"}\ncapabilities:\n  resources: {max_open_files: 64}\n"))
	opts.Platform = &plat
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.SecurityWarnings) != 1 || s.SecurityWarnings[0].Code != "W-SEC-010" {
		t.Fatalf("security warnings = %+v", s.SecurityWarnings)
	}
	if s.Containment.Declared != policy.Advisory || s.Containment.Achieved != policy.Advisory {
		t.Errorf("containment = %+v", s.Containment)
	}
	log := mustRead(t, filepath.Join(s.LogsDir, BootstrapLog))
	for _, want := range []string{
		"[capability-policy] containment: declared 'advisory', achieved 'advisory'",
		"[capability-policy] native subprocess limits: RLIMIT_NPROC=<live tasks of the uid>+128 RLIMIT_NOFILE=64 RLIMIT_FSIZE=4294967296 RLIMIT_CPU=3600 ",
		"[capability-policy] warning[W-SEC-010]: this capsule can start native subprocesses, but ",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("bootstrap.log lacks %q:\n%s", want, log)
		}
	}
}
