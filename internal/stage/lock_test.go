package stage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/testing/testguest"
)

func TestLockFailuresCreateNothing(t *testing.T) {
	const two = `name: demo
version: "1.0.0"
artifacts:
  - name: alpha
    version: "0.1.0"
  - name: beta
    version: "0.2.0"
  - name: notes
    runtime: skill
    source: notes.md
`
	tests := []struct {
		name    string
		lock    func(shaA, shaB string) *lockfile.Lock // nil: no lock
		tamper  string                                 // "flip" a byte of beta's zip, or "swap" it for another valid one
		code    diag.Code
		is      error
		message string
	}{
		{
			name: "missing entry",
			lock: func(a, _ string) *lockfile.Lock {
				return &lockfile.Lock{LockVersion: 1, Artifacts: []lockfile.Entry{{Name: "alpha", ResolvedVersion: "0.1.0", SHA256: lockfile.Hashes{Wasm: a}}}}
			},
			code: CodeLock, is: ErrLockMissingEntry,
			message: "murmur.lock missing artifact entry for 'beta'",
		},
		{
			// The lock's version is asked for (Murmur's mur run), and no
			// store has it.
			name: "lock pins a version no store has",
			lock: func(a, b string) *lockfile.Lock {
				return &lockfile.Lock{LockVersion: 1, Artifacts: []lockfile.Entry{
					{Name: "alpha", ResolvedVersion: "0.1.0", SHA256: lockfile.Hashes{Wasm: a}},
					{Name: "beta", ResolvedVersion: "0.1.9", SHA256: lockfile.Hashes{Wasm: b}}}}
			},
			code: CodeMissing, is: ErrMissingArtifacts,
			message: "missing artifacts: beta@0.1.9",
		},
		{
			name: "lock pins other bytes",
			lock: func(a, _ string) *lockfile.Lock {
				return &lockfile.Lock{LockVersion: 1, Artifacts: []lockfile.Entry{
					{Name: "alpha", ResolvedVersion: "0.1.0", SHA256: lockfile.Hashes{Wasm: a}},
					{Name: "beta", ResolvedVersion: "0.2.0", SHA256: lockfile.Hashes{Wasm: strings.Repeat("ab", 32)}}}}
			},
			code: CodeIntegrity, is: ErrIntegrity,
			message: "artifact integrity check failed for beta@0.2.0",
		},
		{
			name: "tampered package, with lock",
			lock: func(a, b string) *lockfile.Lock {
				return &lockfile.Lock{LockVersion: 1, Artifacts: []lockfile.Entry{
					{Name: "alpha", ResolvedVersion: "0.1.0", SHA256: lockfile.Hashes{Wasm: a}},
					{Name: "beta", ResolvedVersion: "0.2.0", SHA256: lockfile.Hashes{Wasm: b}}}}
			},
			tamper: "flip", code: CodeIntegrity, is: ErrIntegrity,
			message: "artifact integrity check failed for beta@0.2.0",
		},
		{
			name:   "substituted package, no lock",
			tamper: "swap", code: CodeIntegrity, is: ErrIntegrity,
			message: "artifact integrity check failed for beta@0.2.0",
		},
		{
			name:   "tampered package, no lock",
			tamper: "flip", code: CodeIntegrity, is: ErrIntegrity,
			message: "artifact integrity check failed for beta@0.2.0",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			shaA := f.wasmTool(f.local, "alpha", "0.1.0", "")
			shaB := f.wasmTool(f.global, "beta", "0.2.0", "")
			if err := os.WriteFile(filepath.Join(f.project, "notes.md"), []byte("notes"), 0o644); err != nil {
				t.Fatal(err)
			}
			p := f.global.PackagePath("beta", "0.2.0", nil)
			switch tc.tamper {
			case "flip":
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				b[len(b)/2] ^= 0xff
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
			case "swap":
				// A well-formed package that would stage fine: only the
				// hash tells it apart.
				evil := testguest.Zip(t, "murmur.yaml", "name: beta\nversion: \"0.2.0\"\nruntime: tool\n", "beta.wasm", "\x00asm-evil")
				if err := os.WriteFile(p, evil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			opts := f.options(f.capsule(two))
			if tc.lock != nil {
				opts.Lock = tc.lock(shaA, shaB)
			}
			user := t.TempDir()
			opts.Workdir = user
			opts.Task = "do it"
			before, beforeUser := tree(t, f.project), tree(t, user)
			_, err := Stage(context.Background(), opts)
			if err == nil {
				t.Fatal("staged")
			}
			if codeOf(err) != tc.code || !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.message) {
				t.Fatalf("err = %v (code %s), want %s %q", err, codeOf(err), tc.code, tc.message)
			}
			if !strings.Contains(diag.Render(err), "hint: ") {
				t.Fatalf("no hint in %v", err)
			}
			if after := tree(t, f.project); strings.Join(after, ",") != strings.Join(before, ",") {
				t.Fatalf("project changed:\n%v\n%v", before, after)
			}
			if after := tree(t, user); strings.Join(after, ",") != strings.Join(beforeUser, ",") {
				t.Fatalf("workdir changed: %v", after)
			}
			if exists(filepath.Join(f.project, "workdir")) {
				t.Fatal("workdir created")
			}
			// alpha (first in order) may have compiled before beta failed
			// its hash; beta's payload never reaches the compiler.
			if n := f.comp.n.Load(); n > 1 {
				t.Fatalf("compiled %d payloads, want at most alpha's", n)
			}
		})
	}
}

func TestLockAppliedAndPins(t *testing.T) {
	f := newFixture(t)
	sha := f.wasmTool(f.local, "word-count", "0.1.0", "")
	opts := f.options(f.capsule(scriptCapsule))
	opts.Lock = &lockfile.Lock{LockVersion: 1, Artifacts: []lockfile.Entry{{Name: "word-count", ResolvedVersion: "0.1.0", SHA256: lockfile.Hashes{Wasm: strings.ToUpper(sha)}}}}
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.Artifacts[0].SHA256 != sha || len(s.Pins) != 1 || s.Pins[0].SHA256.Wasm != sha {
		t.Fatalf("sha %s pins %+v", s.Artifacts[0].SHA256, s.Pins)
	}
	if wrote, err := s.WriteLockIfAbsent(); wrote || err != nil {
		t.Fatalf("an existing lock was rewritten: %v %v", wrote, err)
	}
}

func TestWriteLockIfAbsent(t *testing.T) {
	f := newFixture(t)
	sha := f.wasmTool(f.local, "word-count", "0.1.0", "")
	s, err := Stage(context.Background(), f.options(f.capsule(scriptCapsule)))
	if err != nil {
		t.Fatal(err)
	}
	wrote, err := s.WriteLockIfAbsent()
	if !wrote || err != nil {
		t.Fatalf("wrote=%v err=%v", wrote, err)
	}
	l, err := ReadLock(filepath.Join(f.project, "murmur.lock"))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := l.Find("word-count")
	if !ok || e.ResolvedVersion != "0.1.0" || e.SHA256.Wasm != sha {
		t.Fatalf("lock = %+v", l)
	}
}

func TestReadLock(t *testing.T) {
	dir := t.TempDir()
	l, err := ReadLock(filepath.Join(dir, "murmur.lock"))
	if l != nil || err != nil {
		t.Fatalf("missing lock: %v %v", l, err)
	}
	p := filepath.Join(dir, "murmur.lock")
	if err := os.WriteFile(p, []byte("lock_version: 2\nartifacts: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLock(p); codeOf(err) != CodeLock {
		t.Fatalf("invalid lock: %v", err)
	}
}

func TestMissingArtifacts(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.global, "there", "1.0.0", "")
	opts := f.options(f.capsule(`name: demo
version: "1.0.0"
artifacts:
  - {name: gone, version: "1.0.0"}
  - {name: there, version: "1.0.0"}
  - {name: also-gone, version: "2.0.0"}
`))
	before := tree(t, f.project)
	_, err := Stage(context.Background(), opts)
	if codeOf(err) != CodeMissing || !strings.Contains(err.Error(), "missing artifacts: gone@1.0.0, also-gone@2.0.0") ||
		!strings.Contains(diag.Render(err), "mur install") {
		t.Fatalf("err = %v", err)
	}
	if after := tree(t, f.project); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("files appeared: %v", after)
	}
}

func TestProjectStoreWins(t *testing.T) {
	f := newFixture(t)
	shaProject := f.wasmTool(f.local, "word-count", "0.1.0", "description: project\n")
	f.wasmTool(f.global, "word-count", "0.1.0", "description: global\n")
	s, err := Stage(context.Background(), f.options(f.capsule(scriptCapsule)))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Artifacts[0]
	if a.SHA256 != shaProject || a.Store != f.local.Root() || a.Manifest.Description != "project" {
		t.Fatalf("resolved from %s (%s)", a.Store, a.Manifest.Description)
	}
}
