package install_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

func toolZip(t *testing.T) []byte {
	return testguest.Zip(t, "murmur.yaml", "name: tool\nversion: \"1.0.0\"\nruntime: tool\nrequires_files: [tool.wasm]\n", "tool.wasm", "\x00asm")
}

// publish puts data into store as name@1.0.0 and returns its sha256.
func publish(t *testing.T, store *registry.Local, name string, typ artifact.RuntimeType, data []byte) string {
	t.Helper()
	p, err := store.Publish(context.Background(), artifact.Meta{Name: name, Version: "1.0.0", Runtime: typ, ArtifactRuntime: "tool"}, data)
	if err != nil {
		t.Fatal(err)
	}
	return p.SHA256
}

// plant puts data in store as name@1.0.0 with a matching sha256 sidecar,
// bypassing the checks Publish makes: a registry that already holds a
// corrupt package (written by an older tool, or by hand).
func plant(t *testing.T, store *registry.Local, name string, typ artifact.RuntimeType, data []byte) string {
	t.Helper()
	publish(t, store, name, typ, testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: \"1.0.0\"\nruntime: tool\n"))
	zip := store.PackagePath(name, "1.0.0", nil)
	sha := artifact.SHA256Hex(data)
	if err := os.WriteFile(zip, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(zip, artifact.Ext)+".sha256", []byte(sha), 0o644); err != nil {
		t.Fatal(err)
	}
	return sha
}

// tree lists every file under dir with its content, to prove a refused
// install wrote nothing.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel += "=" + artifact.SHA256Hex(b)
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func pinOf(name, version, sha string) *lockfile.Lock {
	l := lockfile.New()
	l.Upsert(lockfile.Entry{Name: name, ResolvedVersion: version, SHA256: lockfile.Hashes{Wasm: sha}})
	return l
}

// wasmPayload asks for the root component.
func wasmPayload(*install.Artifact) (install.Payload, error) { return install.PayloadWasm, nil }

// TestFetchFailuresWriteNothing drives the pipeline as its callers do
// (fetch, then store, place and pin) through every failure class, and
// checks the step, the code, the sentinel and that nothing was written.
func TestFetchFailuresWriteNothing(t *testing.T) {
	other := strings.Repeat("ab", 32)
	tests := []struct {
		name    string
		setup   func(t *testing.T, src *registry.Local) // publishes into the source store
		lock    func(sha string) *lockfile.Lock
		mode    install.LockMode
		payload func(*install.Artifact) (install.Payload, error)
		step    install.Step
		code    diag.Code
		is      error
		msg     string
	}{
		{
			name: "missing package", setup: func(*testing.T, *registry.Local) {},
			step: install.StepResolve, code: "E-REG-001", is: install.ErrNotFound,
			msg: "artifact tool@1.0.0 not found in registry",
		},
		{
			name: "sha mismatch",
			setup: func(t *testing.T, src *registry.Local) {
				publish(t, src, "tool", artifact.Wasm, toolZip(t))
				p := src.PackagePath("tool", "1.0.0", nil)
				b, _ := os.ReadFile(p)
				b[len(b)/2] ^= 0xff
				os.WriteFile(p, b, 0o644)
			},
			step: install.StepVerify, code: "E-REG-002", is: install.ErrIntegrity,
			msg: "artifact integrity check failed for tool@1.0.0",
		},
		{
			name: "well-formed substitute with a stale sidecar",
			setup: func(t *testing.T, src *registry.Local) {
				publish(t, src, "tool", artifact.Wasm, toolZip(t))
				swap(t, src)
			},
			step: install.StepVerify, code: "E-REG-002", is: install.ErrIntegrity,
			msg: "artifact integrity check failed for tool@1.0.0",
		},
		{
			name:  "lock pins other bytes (guard)",
			setup: func(t *testing.T, src *registry.Local) { publish(t, src, "tool", artifact.Wasm, toolZip(t)) },
			lock:  func(string) *lockfile.Lock { return pinOf("tool", "1.0.0", other) },
			step:  install.StepLock, code: "E-REG-005",
			msg: "murmur.lock conflict for 'tool': pinned tool@1.0.0 (sha256 " + other + "), but the registry now resolves tool@1.0.0",
		},
		{
			name:  "lock pins another version (guard)",
			setup: func(t *testing.T, src *registry.Local) { publish(t, src, "tool", artifact.Wasm, toolZip(t)) },
			lock:  func(sha string) *lockfile.Lock { return pinOf("tool", "0.9.0", sha) },
			step:  install.StepLock, code: "E-REG-005",
			msg: "murmur.lock conflict for 'tool': pinned tool@0.9.0",
		},
		{
			name:  "lock pins other bytes (frozen)",
			setup: func(t *testing.T, src *registry.Local) { publish(t, src, "tool", artifact.Wasm, toolZip(t)) },
			lock:  func(string) *lockfile.Lock { return pinOf("tool", "1.0.0", other) },
			mode:  install.Frozen, step: install.StepLock, code: "E-REG-002", is: install.ErrPinMismatch,
			msg: "artifact integrity check failed for tool@1.0.0",
		},
		{
			name:  "lock has no entry (frozen)",
			setup: func(t *testing.T, src *registry.Local) { publish(t, src, "tool", artifact.Wasm, toolZip(t)) },
			lock:  func(sha string) *lockfile.Lock { return pinOf("else", "1.0.0", sha) },
			mode:  install.Frozen, step: install.StepLock, code: "E-RUN-003", is: install.ErrLockMissingEntry,
			msg: "murmur.lock missing artifact entry for 'tool'",
		},
		{
			name:  "lock pins another version (frozen)",
			setup: func(t *testing.T, src *registry.Local) { publish(t, src, "tool", artifact.Wasm, toolZip(t)) },
			lock:  func(sha string) *lockfile.Lock { return pinOf("tool", "0.9.0", sha) },
			mode:  install.Frozen, step: install.StepLock, code: "E-RUN-003", is: install.ErrLockVersionMismatch,
			msg: "lockfile version mismatch for 'tool': manifest requested 1.0.0, lock pinned 0.9.0",
		},
		{
			name: "corrupt package: not a zip",
			setup: func(t *testing.T, src *registry.Local) {
				plant(t, src, "tool", artifact.Wasm, []byte("not a zip at all"))
			},
			step: install.StepExtract, code: "E-IO-003",
			msg: "failed to read artifact archive for tool@1.0.0: not a valid zip archive",
		},
		{
			name: "corrupt package: no murmur.yaml",
			setup: func(t *testing.T, src *registry.Local) {
				plant(t, src, "tool", artifact.Wasm, testguest.Zip(t, "manifest.yaml", "name: tool\n", "tool.wasm", "w"))
			},
			step: install.StepExtract, code: "E-IO-003",
			msg: "failed to read artifact archive for tool@1.0.0: missing or unreadable murmur.yaml in artifact archive: artifact missing required file murmur.yaml",
		},
		{
			name: "corrupt package: invalid murmur.yaml",
			setup: func(t *testing.T, src *registry.Local) {
				plant(t, src, "tool", artifact.Wasm, testguest.Zip(t, "murmur.yaml", "name: [tool\n", "tool.wasm", "w"))
			},
			step: install.StepExtract, code: "E-IO-003",
			msg: "failed to read artifact archive for tool@1.0.0: invalid murmur.yaml in artifact archive: ",
		},
		{
			name: "corrupt package: no payload",
			setup: func(t *testing.T, src *registry.Local) {
				publish(t, src, "tool", artifact.Wasm, testguest.Zip(t, "murmur.yaml", "name: tool\nversion: \"1.0.0\"\nruntime: tool\n"))
			},
			payload: wasmPayload, step: install.StepExtract, code: "E-IO-003",
			msg: "failed to read artifact archive for tool@1.0.0: missing root .wasm file (expected capsule.wasm or one root *.wasm)",
		},
		{
			name: "corrupt package: native tool without bin/<name>",
			setup: func(t *testing.T, src *registry.Local) {
				publish(t, src, "tool", artifact.Native, testguest.Zip(t, "murmur.yaml", "name: tool\nversion: \"1.0.0\"\nruntime: tool\nimplementation: native\n", "tool", "#!"))
			},
			payload: func(*install.Artifact) (install.Payload, error) { return install.PayloadNative, nil },
			step:    install.StepExtract, code: "E-IO-003",
			msg: "failed to read artifact archive for tool@1.0.0: failed to read native binary at 'bin/tool' from archive",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			src := registry.NewLocal(filepath.Join(root, "registry"), nil)
			dst := registry.NewLocal(filepath.Join(root, "project", ".murmur", "artifacts"), nil)
			lockPath := filepath.Join(root, "project", lockfile.FileName)
			tc.setup(t, src)
			f := &install.Fetcher{Sources: []install.Source{{Name: src.Root(), Resolver: src}}, Mode: tc.mode}
			if tc.lock != nil {
				f.Lock = tc.lock(artifact.SHA256Hex(toolZip(t)))
				if err := lockfile.Write(lockPath, f.Lock); err != nil {
					t.Fatal(err)
				}
			}
			before := tree(t, root)
			err := fetchStorePin(t, f, tc.payload, dst, lockPath)
			var d *diag.Error
			if !errors.As(err, &d) {
				t.Fatalf("err = %v (%T), want a coded error", err, err)
			}
			if !errors.Is(err, tc.step) || d.Code != tc.code {
				t.Errorf("code %s, err %v; want %s at step %s", d.Code, err, tc.code, tc.step)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err = %v, want errors.Is %v", err, tc.is)
			}
			if r := diag.Render(err); !strings.Contains(r, "error["+string(tc.code)+"]: "+tc.msg) || !strings.Contains(r, "\n  hint: ") {
				t.Errorf("err = %q, want %q and a hint", err, tc.msg)
			}
			if after := tree(t, root); after != before {
				t.Errorf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// swap replaces the stored package by another well-formed one: only the
// hash tells them apart.
func swap(t *testing.T, src *registry.Local) {
	t.Helper()
	evil := testguest.Zip(t, "murmur.yaml", "name: tool\nversion: \"1.0.0\"\nruntime: tool\n", "tool.wasm", "\x00asm-evil")
	if err := os.WriteFile(src.PackagePath("tool", "1.0.0", nil), evil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fetchStorePin is what an install does: fetch, then write, then pin.
func fetchStorePin(t *testing.T, f *install.Fetcher, payload func(*install.Artifact) (install.Payload, error), dst *registry.Local, lockPath string) error {
	t.Helper()
	a, err := f.Fetch(context.Background(), install.Request{Name: "tool", Version: "1.0.0", Payload: payload})
	if err != nil {
		return err
	}
	if _, err := install.Store(context.Background(), dst, a); err != nil {
		return err
	}
	if err := install.Place(filepath.Join(filepath.Dir(lockPath), "tools", "tool"), a); err != nil {
		return err
	}
	return install.Pin(lockPath, f.Lock, a.Pin())
}
