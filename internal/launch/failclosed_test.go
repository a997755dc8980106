package launch_test

// Every parsed capability is enforced or refused, never ignored, through
// the mur binary: a containment floor mur-go cannot hold is refused before
// anything is created (this host provides sealed; a workdir_exec capsule
// gets advisory),
// capabilities.resources is applied as hard rlimits
// to a native tool that tries to cross them (testdata/rlimit, installed as
// "secret", the tool capsule-steps calls third), the resources nothing
// enforces yet are refused, and the W-SEC warnings for a capsule that runs
// native code reach stderr and bootstrap.log.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var rlimitPkg = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-rlimit-pkg-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(src, "rlimit-bin")
	if err := goBuild(bin, "./internal/launch/testdata/rlimit"); err != nil {
		return "", err
	}
	dir := filepath.Join(src, "secret")
	if err := artifactDir(dir, "secret", "implementation: native\n", map[string]string{"bin/secret": bin}); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build: exit %d\n%s", code, stderr)
	}
	return filepath.Join(src, "secret-0.1.0.mur.zip"), nil
})

// refusedProject writes a capsule-steps project declaring record with
// capabilities and installs record; nothing is run.
func refusedProject(t *testing.T, capabilities string) *project {
	t.Helper()
	return newProject(t, capabilities, []string{"record"})
}

// assertNothingCreated checks a refused run left no session and no lock.
func assertNothingCreated(t *testing.T, p *project, workdir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(p.dir, "workdir")); err == nil {
		t.Error("a refused run created <project>/workdir")
	}
	if _, err := os.Stat(filepath.Join(workdir, ".murmur")); err == nil {
		t.Error("a refused run created .murmur in the --workdir")
	}
	if _, err := os.Stat(filepath.Join(p.dir, "murmur.lock")); err == nil {
		t.Error("a refused run wrote murmur.lock")
	}
}

func TestUnachievableContainmentIsRefusedBeforeAnythingIsCreated(t *testing.T) {
	for _, tc := range []struct {
		name, caps string
		flags      []string
		want       []string
	}{
		{"scoped without Landlock is not this host: workdir_exec", "  containment: scoped\n  filesystem:\n    workdir_exec: true\n", nil, []string{
			"error[E-CAP-003]: declared containment class 'scoped' is not achievable on this host (achieved: 'advisory')"}},
		{"staged runtime below sealed", "  shell:\n    allow: [sh]\n    staged_runtime: [{binary: sh, source_path: /opt/sh, pin: x}]\n", nil, []string{
			"error[E-CAP-004]: capabilities.shell.staged_runtime grants for sh are bound into the sealed root only, but the declared containment floor is 'advisory'"}},
		{"strongest source wins", "  containment: scoped\n  filesystem:\n    workdir_exec: true\n", []string{"--containment", "sealed"}, []string{
			"declared containment class 'sealed'"}},
		{"workdir_exec reason first", "  containment: scoped\n  filesystem:\n    workdir_exec: true\n", nil, []string{
			"(achieved: 'advisory'): capabilities.filesystem.workdir_exec is true"}},
		{"bad flag", "  network:\n    allow: []\n", []string{"--containment", "seald"}, []string{
			"error[E-IO-003]: --containment must be one of: advisory, scoped, sealed; got 'seald'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := refusedProject(t, tc.caps)
			workdir := t.TempDir()
			args := append([]string{"run", "--workdir", workdir}, tc.flags...)
			stdout, stderr, code := runMur(p.dir, nil, args...)
			want := 1
			if tc.name == "bad flag" {
				want = 2 // a command-line error, refused before the manifest is read
			}
			if code != want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if strings.Contains(stdout, "session:") {
				t.Errorf("a session was started:\n%s", stdout)
			}
			assertNothingCreated(t, p, workdir)
		})
	}
	// This host (Linux with Landlock, seccomp and user + mount namespaces,
	// as CI is) provides sealed: the classes it really holds run.
	for _, floor := range []string{"advisory", "scoped", "sealed"} {
		t.Run(floor+" declared runs", func(t *testing.T) {
			p := refusedProject(t, "  containment: "+floor+"\n")
			p.mur(0, "run", "--containment", floor, "--workdir", t.TempDir())
		})
	}
}

func TestNativeToolIsStoppedAtItsRlimits(t *testing.T) {
	pkg, err := rlimitPkg()
	if err != nil {
		t.Fatal(err)
	}
	const files, size = 48, 65536
	p := newProject(t, fmt.Sprintf("  resources:\n    max_open_files: %d\n    max_file_size_bytes: %d\n", files, size), []string{"record"})
	p.mur(0, "install", pkg)
	manifest := "name: steps\nversion: \"0.1.0\"\nartifacts:\n" +
		"  - name: record\n    version: \"0.1.0\"\n    runtime: tool\n" +
		"  - name: secret\n    version: \"0.1.0\"\n    runtime: tool\n" +
		fmt.Sprintf("capabilities:\n  resources:\n    max_open_files: %d\n    max_file_size_bytes: %d\n", files, size)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	s := p.run(0, "http://127.0.0.1:9/")
	if got := at(s.steps(), 2); got != "ok" {
		t.Fatalf("the rlimit tool's call recorded %q, want ok\nrecord.txt:\n%s\nstderr:\n%s", got, s.record, s.stderr)
	}
	b, err := os.ReadFile(filepath.Join(s.workdir, "rlimit.txt"))
	if err != nil {
		t.Fatalf("the rlimit tool left no report: %v\nstderr:\n%s", err, s.stderr)
	}
	report := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		report[k] = v
	}
	num := func(k string) uint64 {
		n, err := strconv.ParseUint(report[k], 10, 64)
		if err != nil {
			t.Errorf("report %s=%q: %v\n%s", k, report[k], err, b)
		}
		return n
	}
	for _, k := range []string{"nofile-soft", "nofile-hard"} {
		if n := num(k); n != files {
			t.Errorf("%s = %d, want %d (hard, soft = hard)", k, n, files)
		}
	}
	for _, k := range []string{"fsize-soft", "fsize-hard"} {
		if n := num(k); n != size {
			t.Errorf("%s = %d, want %d", k, n, size)
		}
	}
	if n := num("core-hard"); n != 0 {
		t.Errorf("RLIMIT_CORE hard = %d, want 0", n)
	}
	if n := num("as-hard"); n != 2147483648 {
		t.Errorf("RLIMIT_AS hard = %d, want the 2 GiB default", n)
	}
	if n := num("opened"); n >= files || !strings.Contains(report["open-error"], "too many open files") {
		t.Errorf("opened %d files (%s); RLIMIT_NOFILE %d must stop it", n, report["open-error"], files)
	}
	if n := num("written"); n != size || !strings.Contains(report["write-error"], "file too large") {
		t.Errorf("wrote %d bytes (%s); RLIMIT_FSIZE must stop it at %d", n, report["write-error"], size)
	}
}

func TestNativeCodeWarnsOfItsContainment(t *testing.T) {
	p := newProject(t, "  shell:\n    allow: [bash]\n  network:\n    allow: [\"peer.example\"]\n", []string{"record"})
	s := p.run(0, "http://127.0.0.1:9/")
	log, err := os.ReadFile(filepath.Join(s.sessionDir, "logs", "bootstrap.log"))
	if err != nil {
		t.Fatal(err)
	}
	// W-SEC-010 is for hosts with no cgroup scope; this one (as CI) has one.
	if strings.Contains(s.stderr, "W-SEC-010") {
		t.Errorf("W-SEC-010 on a host with a cgroup scope:\n%s", s.stderr)
	}
	for _, code := range []string{"W-SEC-005"} {
		link := "(https://docs.murmur.nexus/murmur-nexus/murmur/reference/diagnostics/#" + strings.ToLower(code) + ")"
		if !hasLine(s.stderr, "[capsule-runtime] warning["+code+"]: ", link) {
			t.Errorf("stderr lacks %s:\n%s", code, s.stderr)
		}
		if !hasLine(string(log), "[capability-policy] warning["+code+"]: ", link) {
			t.Errorf("bootstrap.log lacks %s:\n%s", code, log)
		}
	}
	if !strings.Contains(string(log), "[capability-policy] cgroup scope: cgroup") || !strings.Contains(string(log), "(memory 4294967296 bytes, pids 256, cpu 200%") {
		t.Errorf("bootstrap.log does not record the cgroup scope:\n%s", log)
	}
	if !strings.Contains(string(log), "containment: declared 'advisory', achieved 'scoped', tier KernelFull (landlock+seccomp)") {
		t.Errorf("bootstrap.log does not record the tier:\n%s", log)
	}
	if !strings.Contains(string(log), "native subprocess limits: RLIMIT_NPROC=<live tasks of the uid>+128 RLIMIT_NOFILE=1024 ") {
		t.Errorf("bootstrap.log does not record the default rlimits:\n%s", log)
	}
}

// hasLine reports whether text has a line starting with prefix and
// ending with suffix.
func hasLine(text, prefix, suffix string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) && strings.HasSuffix(l, suffix) {
			return true
		}
	}
	return false
}
