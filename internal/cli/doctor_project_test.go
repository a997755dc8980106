package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
)

// Murmur's mur doctor project checks (murmur-nexus/murmur v0.2.0,
// tests/doctor_cmd.rs), through mur: every declared artifact looked for
// where mur run looks and held to murmur.lock, the verdict and its Fix
// lines, and what stops the checklist. The host report comes first and
// is the subject of doctor_test.go.

// doctorProject is a capsule project declaring artifacts (murmur.yaml
// lines) in a HOME of its own, its directory the current one.
type doctorProject struct {
	t         *testing.T
	dir, home string
	staging   string // where skill packages are built
}

func newDoctorProject(t *testing.T, artifacts string) *doctorProject {
	t.Helper()
	p := &doctorProject{t: t, dir: t.TempDir(), home: t.TempDir(), staging: t.TempDir()}
	t.Setenv("HOME", p.home)
	t.Setenv("USERPROFILE", "")
	p.manifest(artifacts)
	t.Chdir(p.dir)
	return p
}

// manifest rewrites murmur.yaml with these artifacts lines.
func (p *doctorProject) manifest(artifacts string) {
	p.t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte("name: doctor-fixture\nversion: 0.0.1\nartifacts:\n"+artifacts), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// skill builds the skill package name@version and returns its path.
func (p *doctorProject) skill(name, version string) string {
	p.t.Helper()
	src := filepath.Join(p.staging, name+"-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("# guidance\n"), 0o644); err != nil {
		p.t.Fatal(err)
	}
	t := p.t
	t.Chdir(p.staging)
	mur(t, "build", "--skill="+name, src, "--version", version).want(t, 0, "Built artifact", "")
	t.Chdir(p.dir)
	return filepath.Join(p.staging, name+"-"+version+".mur.zip")
}

// installed puts the skill in the project store, unpinned.
func (p *doctorProject) installed(name, version string) string {
	pkg := p.skill(name, version)
	mur(p.t, "install", pkg).want(p.t, 0, "", "")
	return pkg
}

// lock writes murmur.lock with one entry.
func (p *doctorProject) lock(name, version, sha string) {
	p.t.Helper()
	l := lockfile.New()
	l.Upsert(lockfile.Entry{Name: name, ResolvedVersion: version, SHA256: lockfile.Hashes{Wasm: sha}})
	if err := lockfile.Write(filepath.Join(p.dir, lockfile.FileName), l); err != nil {
		p.t.Fatal(err)
	}
}

// project is the doctor's project section: what follows "Checking".
func project(o outcome) string {
	_, after, _ := strings.Cut(o.stdout, "\nChecking ")
	return after
}

func (o outcome) expect(t *testing.T, code int, want ...string) {
	t.Helper()
	if o.code != code {
		t.Errorf("exit %d, want %d", o.code, code)
	}
	for _, w := range want {
		if !strings.Contains(project(o), w) {
			t.Errorf("the project section lacks %q", w)
		}
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", o.stdout, o.stderr)
	}
}

var zeros = strings.Repeat("0", 64)

func TestDoctorChecksTheProjectsArtifacts(t *testing.T) {
	plat := artifact.CurrentPlatform()
	skill := func(name, version string) string {
		return "  - name: " + name + "\n    version: " + version + "\n    runtime: skill\n"
	}
	t.Run("in the project store", func(t *testing.T) {
		p := newDoctorProject(t, skill("doctor-skill", "0.1.0"))
		p.installed("doctor-skill", "0.1.0")
		mur(t, "doctor").expect(t, 0, "All checks passed.", "✓  doctor-skill@0.1.0   "+plat)
	})
	t.Run("only in the global store", func(t *testing.T) {
		p := newDoctorProject(t, skill("global-skill", "0.3.0"))
		mur(t, "publish", p.skill("global-skill", "0.3.0")).want(t, 0, "Published", "")
		mur(t, "doctor").expect(t, 0, "All checks passed.", "✓  global-skill@0.3.0")
	})
	t.Run("in neither store", func(t *testing.T) {
		newDoctorProject(t, skill("absent-skill", "9.9.9"))
		mur(t, "doctor").expect(t, 1, "✗  absent-skill@9.9.9   "+plat+"   — missing",
			"\n0 checks passed, 1 error found.\n", "\nFix: mur install absent-skill@9.9.9\n")
	})
	t.Run("the checklist is the manifest", func(t *testing.T) {
		p := newDoctorProject(t, skill("pinned-skill", "0.1.0"))
		p.installed("pinned-skill", "0.1.0")
		mur(t, "doctor").expect(t, 0, "All checks passed.")
		p.manifest(skill("pinned-skill", "0.2.0"))
		mur(t, "doctor").expect(t, 1, "✗  pinned-skill@0.2.0", "Fix: mur install pinned-skill@0.2.0")
	})
	t.Run("counts", func(t *testing.T) {
		p := newDoctorProject(t, skill("present-skill", "0.1.0")+skill("missing-a", "1.0.0")+skill("missing-b", "2.0.0"))
		p.installed("present-skill", "0.1.0")
		mur(t, "doctor").expect(t, 1, "1 check passed, 2 errors found.", "Fix: mur install missing-a@1.0.0", "Fix: mur install missing-b@2.0.0")
	})
	t.Run("a local source passes", func(t *testing.T) {
		p := newDoctorProject(t, "  - name: local-skill\n    version: 0.1.0\n    runtime: skill\n    source: ./skills\n")
		if err := os.MkdirAll(filepath.Join(p.dir, "skills"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.dir, "skills", "skill.md"), []byte("# local\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		o := mur(t, "doctor")
		o.expect(t, 0, "✓  local-skill@local   local source", "All checks passed.")
		if strings.Contains(project(o), "✗") {
			t.Errorf("a failing line:\n%s", o.stdout)
		}
	})
	t.Run("from a subdirectory", func(t *testing.T) {
		p := newDoctorProject(t, skill("nested-skill", "0.1.0"))
		p.installed("nested-skill", "0.1.0")
		nested := filepath.Join(p.dir, "src", "deep")
		if err := os.MkdirAll(nested, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(nested)
		mur(t, "doctor").expect(t, 0, "✓  nested-skill@0.1.0", filepath.Join(p.dir, "murmur.yaml")+" for "+plat+"...\n")
	})
}

func TestDoctorHoldsTheProjectToItsLock(t *testing.T) {
	skill := func(name string) string { return "  - name: " + name + "\n    version: 0.1.0\n    runtime: skill\n" }
	t.Run("no lock, no word of one", func(t *testing.T) {
		p := newDoctorProject(t, skill("solo-skill"))
		p.installed("solo-skill", "0.1.0")
		o := mur(t, "doctor")
		o.expect(t, 0, "All checks passed.")
		if strings.Contains(project(o), "murmur.lock") || strings.Contains(project(o), "sha256") {
			t.Errorf("the project section mentions a lock:\n%s", project(o))
		}
	})
	t.Run("the lock mur install wrote", func(t *testing.T) {
		p := newDoctorProject(t, skill("locked-skill"))
		mur(t, "publish", p.skill("locked-skill", "0.1.0")).want(t, 0, "Published", "")
		mur(t, "install", "locked-skill@0.1.0").want(t, 0, "", "")
		if _, err := os.Stat(filepath.Join(p.dir, "murmur.lock")); err != nil {
			t.Fatal(err)
		}
		mur(t, "doctor").expect(t, 0, "✓  locked-skill@0.1.0", "All checks passed.")
	})
	t.Run("other bytes than the lock pins", func(t *testing.T) {
		p := newDoctorProject(t, skill("drifted-skill"))
		p.installed("drifted-skill", "0.1.0")
		p.lock("drifted-skill", "0.1.0", zeros)
		mur(t, "doctor").expect(t, 1, "✗  drifted-skill@0.1.0", "— artifact integrity check failed for drifted-skill@0.1.0\n",
			"expected sha256 (murmur.lock): "+zeros+"\n", "actual sha256 (on disk):       ",
			"0 checks passed, 1 error found.", "Fix: drifted-skill: the package in the store does not match murmur.lock")
	})
	t.Run("another version pinned", func(t *testing.T) {
		p := newDoctorProject(t, skill("repinned-skill"))
		p.installed("repinned-skill", "0.1.0")
		p.lock("repinned-skill", "0.2.0", zeros)
		o := mur(t, "doctor")
		o.expect(t, 1, "— murmur.lock version mismatch for 'repinned-skill': manifest requested 0.1.0, lock pinned 0.2.0\n",
			"0 checks passed, 1 error found.", "Fix: repinned-skill: mur run stages the pinned 0.2.0; to run 0.1.0, remove its murmur.lock entry, then mur install repinned-skill@0.1.0")
		if strings.Contains(project(o), "integrity") {
			t.Errorf("a version mismatch also reported as other bytes:\n%s", project(o))
		}
	})
	t.Run("no entry", func(t *testing.T) {
		p := newDoctorProject(t, skill("unpinned-skill"))
		p.installed("unpinned-skill", "0.1.0")
		p.lock("other-skill", "9.9.9", zeros)
		mur(t, "doctor").expect(t, 1, "— murmur.lock missing artifact entry for 'unpinned-skill'\n",
			"Fix: mur install unpinned-skill@0.1.0", "0 checks passed, 1 error found.")
	})
	t.Run("a local source is never looked up in the lock", func(t *testing.T) {
		p := newDoctorProject(t, skill("pinned-dep"))
		pkg := p.installed("pinned-dep", "0.1.0")
		b, err := os.ReadFile(pkg)
		if err != nil {
			t.Fatal(err)
		}
		p.lock("pinned-dep", "0.1.0", artifact.SHA256Hex(b))
		if err := os.MkdirAll(filepath.Join(p.dir, "skills"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.dir, "skills", "skill.md"), []byte("# local\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		p.manifest(skill("pinned-dep") + "  - name: local-skill\n    version: 0.1.0\n    runtime: skill\n    source: ./skills\n")
		o := mur(t, "doctor")
		o.expect(t, 0, "✓  local-skill@local   local source", "All checks passed.")
		if strings.Contains(project(o), "'local-skill'") {
			t.Errorf("the local skill was looked up in the lock:\n%s", project(o))
		}
	})
}

// What stops the checklist is an error on stderr after the host report,
// and no checklist line or verdict is printed.
func TestDoctorStopsOnWhatItCannotRead(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, lock, stderr string
		outside                      bool
	}{
		{"no project", "", "", "error[E-IO-001]: no project root found", true},
		{"a malformed manifest", "name: broken\nversion: [\n", "", "error[E-MAN-002]", false},
		{"a malformed lock", "name: c\nversion: 0.0.1\nartifacts:\n  - name: broken-lock-skill\n    version: 0.1.0\n    runtime: skill\n",
			"lock_version: [\n", "error[E-RUN-003]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("HOME", t.TempDir())
			if !tc.outside {
				if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(tc.manifest), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.lock != "" {
				if err := os.WriteFile(filepath.Join(dir, "murmur.lock"), []byte(tc.lock), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			o := mur(t, "doctor")
			o.want(t, 1, "strongest containment class: ", tc.stderr)
			for _, absent := range []string{"Checking ", "All checks passed.", "broken-lock-skill"} {
				if strings.Contains(o.stdout, absent) {
					t.Errorf("stdout has %q:\n%s", absent, o.stdout)
				}
			}
		})
	}
}
