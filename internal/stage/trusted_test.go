package stage

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/format/manifest"
)

// Everything a later run reads and believes is on the list, whether or
// not it exists yet.
func TestTrustedPaths(t *testing.T) {
	f := newFixture(t)
	for _, d := range []string{"skills", "prompts"} {
		if err := os.Mkdir(filepath.Join(f.project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, yaml string
		want       []string // relative to the project, "~" for HOME
	}{
		{"agent", `name: a
version: "1.0.0"
inference:
  endpoint: http://localhost:9
  model: m
  driver: {artifact: d}
  system_prompt_file: prompts/system.md
  compaction: {system_prompt_file: prompts/compact.md}
artifacts:
  - {name: guide, runtime: skill, source: guide.md}
  - {name: dir, runtime: skill, source: skills}
`, []string{"murmur.yaml", ".env", "murmur.lock", ".murmur/artifacts", ".murmur/config.yaml", "~/.murmur", "~/.murmur/artifacts",
			"prompts/system.md", "prompts/compact.md", "guide.md", "skills/skill.md"}},
		{"script", "name: s\nversion: \"1.0.0\"\n", []string{"murmur.yaml", ".env", "murmur.lock", ".murmur/artifacts",
			".murmur/config.yaml", "~/.murmur", "~/.murmur/artifacts", "capsule.wasm", "other.wasm"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := f.options(f.capsule(tc.yaml))
			opts.ComponentPath = filepath.Join(f.project, "other.wasm")
			opts.CacheDir = filepath.Join(f.home, "cache")
			if err := opts.defaults(); err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, p := range trustedPaths(opts.Manifest, &opts) {
				got[p.Path] = true
			}
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			want := []string{opts.CacheDir, self}
			for _, w := range tc.want {
				if rest, ok := strings.CutPrefix(w, "~/"); ok {
					want = append(want, filepath.Join(f.home, rest))
				} else {
					want = append(want, filepath.Join(f.project, filepath.FromSlash(w)))
				}
			}
			for _, w := range want {
				if !got[w] {
					t.Errorf("%s is not trusted; the list is %v", w, got)
				}
			}
			if len(got) != len(want) {
				t.Errorf("trusted %d paths, want %d: %v", len(got), len(want), got)
			}
		})
	}
}

// The default compile cache is trusted when no cache dir is given.
func TestTrustedPathsDefaultCache(t *testing.T) {
	f := newFixture(t)
	opts := f.options(f.capsule("name: s\nversion: \"1.0.0\"\n"))
	if err := opts.defaults(); err != nil {
		t.Fatal(err)
	}
	cache, err := component.CacheDir("")
	if err != nil {
		t.Skip("no user cache dir on this host")
	}
	for _, p := range trustedPaths(opts.Manifest, &opts) {
		if p.Path == cache {
			return
		}
	}
	t.Errorf("the default compile cache %s is not trusted", cache)
}

func TestBeneath(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, p string
		first  string
		in     bool
	}{
		{real, real, "", true},
		{real, filepath.Join(real, ".env"), ".env", true},
		{real, filepath.Join(real, "sub", "deeper", "x"), "sub", true},
		{real, filepath.Join(real, "missing", "x"), "missing", true},
		{link, filepath.Join(real, ".env"), ".env", true}, // the workdir named through a link
		{real, filepath.Join(link, "sub", "x"), "sub", true},
		{filepath.Join(real, "sub"), filepath.Join(real, ".env"), "", false},
		{filepath.Join(real, "sub"), real, "", false},
		{real, filepath.Join(root, "realm", "x"), "", false},
		{filepath.Join(root, "absent"), filepath.Join(root, "absent", "x"), "x", true},
	} {
		first, in := beneath(tc.dir, tc.p)
		if first != tc.first || in != tc.in {
			t.Errorf("beneath(%s, %s) = %q, %v; want %q, %v", tc.dir, tc.p, first, in, tc.first, tc.in)
		}
	}
}

// A workdir holding what the runtime trusts is refused when a subprocess
// could reach it, and hidden from WASM guests otherwise; a preopen that
// is, or lies inside, a trusted path is refused for everyone. Nothing is
// written by a refused stage.
func TestTrustedWorkdir(t *testing.T) {
	const wasmOnly = "name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: w, version: \"1.0.0\"}\n"
	const withShell = wasmOnly + "capabilities:\n  shell: {allow: [sh]}\n"
	for _, tc := range []struct {
		name, yaml, workdir string // workdir relative to the fixture's root
		home                string
		refused             string // a part of the E-CAP-002 message, "" when staged
		hidden              []string
	}{
		{name: "project as workdir, WASM only", yaml: wasmOnly, workdir: "proj",
			hidden: []string{".murmur", "murmur.yaml", ".env", "murmur.lock"}},
		{name: "project as workdir, shell", yaml: withShell, workdir: "proj",
			refused: "holds what the runtime trusts at the next run: the manifest (murmur.yaml), .env (.env), murmur.lock (murmur.lock), the project's artifact store (.murmur/artifacts), the project's .murmur/config.yaml (.murmur/config.yaml), the capsule's component (capsule.wasm); the capsule starts native subprocesses (shell.allow: sh)"},
		{name: "an ancestor of the project, shell", yaml: withShell, workdir: ".", refused: "the manifest (proj/murmur.yaml)"},
		{name: "an ancestor of the project, WASM only", yaml: wasmOnly, workdir: ".", hidden: []string{"proj", "home"}},
		{name: "inside the project store", yaml: wasmOnly, workdir: "proj/.murmur/artifacts/x",
			refused: "workdir " + "{root}/proj/.murmur/artifacts/x is or lies inside the project's artifact store"},
		{name: "inside ~/.murmur", yaml: wasmOnly, workdir: "home/.murmur/x", refused: "lies inside ~/.murmur"},
		{name: "a scope inside ~/.murmur", yaml: "name: demo\nversion: \"1.0.0\"\nartifacts:\n  - name: w\n    version: \"1.0.0\"\n    capabilities: {filesystem: {scope: h/.murmur}}\n",
			workdir: "w", home: "w/h", refused: "filesystem scope 'h/.murmur' of artifact 'w' {root}/w/h/.murmur is or lies inside ~/.murmur"},
		{name: "an interpreter_runtime directory holding .env", workdir: "w",
			yaml:    wasmOnly + "capabilities:\n  shell:\n    allow: [sh]\n    interpreter_runtime: [{binary: sh, dirs: [{path: {root}, list_dir: false}]}]\n",
			refused: "capabilities.shell.interpreter_runtime directory {root} holds .env ({root}/proj/.env), which every subprocess of the capsule could then read"},
		{name: "an interpreter_runtime directory holding only what is not secret", workdir: "w",
			yaml: wasmOnly + "capabilities:\n  shell:\n    allow: [sh]\n    interpreter_runtime: [{binary: sh, dirs: [{path: {root}/proj/.murmur, list_dir: false}]}]\n"},
		{name: "a workdir of its own, shell", yaml: withShell, workdir: "w"},
		{name: "no --workdir, shell", yaml: withShell},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			root := filepath.Dir(f.project)
			if tc.home != "" {
				f.home = filepath.Join(root, tc.home)
			}
			f.wasmTool(f.local, "w", "1.0.0", "")
			opts := f.options(f.capsule(strings.ReplaceAll(tc.yaml, "{root}", root)))
			if tc.workdir != "" {
				opts.Workdir = filepath.Join(root, tc.workdir)
				if err := os.MkdirAll(opts.Workdir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			before := tree(t, root)
			s, err := Stage(context.Background(), opts)
			if tc.refused != "" {
				want := strings.ReplaceAll(tc.refused, "{root}", root)
				if codeOf(err) != CodeScope || !strings.Contains(err.Error(), want) {
					t.Fatalf("err = %v\nwant E-CAP-002 with %q", err, want)
				}
				if after := tree(t, root); !slices.Equal(before, after) {
					t.Errorf("the refused stage wrote %v", after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := s.HiddenUnder(s.AccessibleDir)
			for _, h := range tc.hidden {
				if !slices.Contains(got, h) {
					t.Errorf("HiddenUnder(workdir) = %v, lacks %s", got, h)
				}
			}
		})
	}
}

// Every way a capsule starts a native subprocess counts.
func TestSubprocesses(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		arts []*Artifact
		want string
	}{
		{"name: c\nversion: '1'\n", nil, ""},
		{"name: c\nversion: '1'\n", []*Artifact{{Name: "w", Kind: KindWasm}, {Name: "n", Kind: KindNative}}, "native tool 'n'"},
		{"name: c\nversion: '1'\ncapabilities: {shell: {allow: [sh, git]}}\n", nil, "shell.allow: sh, git"},
		{"name: c\nversion: '1'\ncapabilities: {spawn: {allow: [peer]}}\n", nil, "spawn.allow: peer"},
		{"name: c\nversion: '1'\ninference: {transport: process, command: claude, model: m}\n", nil, "transport: process runs claude"},
	} {
		f, _, err := manifest.Parse([]byte(tc.yaml), "murmur.yaml", manifest.ParseOptions{Role: manifest.RoleCapsule})
		if err != nil {
			t.Fatal(err)
		}
		s := &Staged{Capsule: f.Capsule, Artifacts: tc.arts}
		if got := s.subprocessReasons(); got != tc.want {
			t.Errorf("%q: subprocessReasons() = %q, want %q", tc.yaml, got, tc.want)
		}
	}
}

// What must not even be read is marked secret: .env, ~/.murmur, and a
// manifest only when it holds a literal api_key.
func TestTrustedSecrets(t *testing.T) {
	const agent = "name: a\nversion: '1'\ninference:\n  endpoint: http://localhost:9\n  model: m\n  driver: {artifact: d}\n"
	for _, tc := range []struct {
		yaml           string
		manifestSecret bool
	}{
		{agent, false},
		{agent + "  api_key: ${KEY}\n", false},
		{agent + "  api_key: sk-literal\n", true},
	} {
		f := newFixture(t)
		m, _, err := manifest.Parse([]byte(tc.yaml), filepath.Join(f.project, "murmur.yaml"),
			manifest.ParseOptions{Role: manifest.RoleCapsule, Env: func(string) (string, bool) { return "sk-from-env", true }})
		if err != nil {
			t.Fatal(err)
		}
		opts := f.options(m)
		if err := opts.defaults(); err != nil {
			t.Fatal(err)
		}
		secret := map[string]bool{}
		for _, p := range trustedPaths(m, &opts) {
			secret[p.Path] = p.Secret
		}
		want := map[string]bool{filepath.Join(f.project, "murmur.yaml"): tc.manifestSecret, filepath.Join(f.project, ".env"): true,
			filepath.Join(f.home, ".murmur"): true, filepath.Join(f.project, "murmur.lock"): false}
		for p, w := range want {
			if got, ok := secret[p]; !ok || got != w {
				t.Errorf("%q: %s secret = %v (listed %v), want %v", tc.yaml, p, got, ok, w)
			}
		}
	}
}
