package artifact

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

// writeTree creates files under dir; content "->target" makes a symlink.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const toolManifest = "name: my-tool\nversion: \"0.1.0\"\nruntime: tool\n"

func TestBuildPacksManifestThenRequiredFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"murmur.yaml":    toolManifest + "requires_files: [my_tool.wasm, docs/README.md]\n",
		"my_tool.wasm":   emptyComponent,
		"docs/README.md": "hi",
		"unlisted.txt":   "not packed",
	})
	res, err := Build(context.Background(), BuildOptions{Source: dir})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "my-tool-0.1.0.mur.zip"); res.Path != want {
		t.Errorf("path %s, want %s", res.Path, want)
	}
	data, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(data, DefaultMaxDecompressedBytes)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Names(); !slices.Equal(got, []string{"murmur.yaml", "my_tool.wasm", "docs/README.md"}) {
		t.Errorf("entries %v", got)
	}
	if res.Payload != "my_tool.wasm" || res.SHA256 != SHA256Hex(data) || res.Type != Wasm {
		t.Errorf("result %+v", res)
	}
	// Same inputs, same bytes: the digest is reproducible.
	again, err := Build(context.Background(), BuildOptions{Source: dir, Output: filepath.Join(t.TempDir(), "x.mur.zip")})
	if err != nil || again.SHA256 != res.SHA256 {
		t.Errorf("rebuild digest %s, want %s (%v)", again.SHA256, res.SHA256, err)
	}
}

func TestBuildOutputForms(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"murmur.yaml": toolManifest + "requires_files: [t.wasm]\n", "t.wasm": emptyComponent})
	outDir := t.TempDir()
	for _, tc := range []struct{ output, want string }{
		{outDir, filepath.Join(outDir, "my-tool-0.1.0.mur.zip")},
		{filepath.Join(outDir, "new") + "/", filepath.Join(outDir, "new", "my-tool-0.1.0.mur.zip")},
		// A path that does not exist and has no extension is a directory.
		{filepath.Join(outDir, "dist"), filepath.Join(outDir, "dist", "my-tool-0.1.0.mur.zip")},
		{filepath.Join(outDir, "out", "pkgs"), filepath.Join(outDir, "out", "pkgs", "my-tool-0.1.0.mur.zip")},
		{filepath.Join(outDir, "sub", "custom.mur.zip"), filepath.Join(outDir, "sub", "custom.mur.zip")},
	} {
		res, err := Build(context.Background(), BuildOptions{Source: dir, Output: tc.output})
		if err != nil || res.Path != tc.want {
			t.Errorf("-o %s: %v, %v; want %s", tc.output, res, err, tc.want)
		}
	}
}

// One case per error code mur build reports.
func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		output string
		code   diag.Code
		msg    string
	}{
		{"no manifest", map[string]string{"x": ""}, "", CodeNotFound, "manifest not found: "},
		{"missing name", map[string]string{"murmur.yaml": "version: '1'\nruntime: tool\n"}, "", CodeMissingField, "murmur.yaml: missing required field 'name'"},
		{"missing runtime", map[string]string{"murmur.yaml": "name: a\nversion: '1'\n"}, "", CodeMissingField, "missing required field 'runtime'"},
		{"bad yaml", map[string]string{"murmur.yaml": "name: [\n"}, "", CodeSyntax, "murmur.yaml: YAML syntax error"},
		{"number version", map[string]string{"murmur.yaml": "name: a\nversion: 1.0\nruntime: tool\n"}, "", CodeInvalid,
			"murmur.yaml: field 'version' has invalid type (expected string, got number)"},
		{"requires_files not a list", map[string]string{"murmur.yaml": toolManifest + "requires_files: a.wasm\n"}, "", CodeInvalid,
			"field 'requires_files' has invalid type (expected sequence of strings, got string)"},
		{"bad execution", map[string]string{"murmur.yaml": toolManifest + "execution: docker\n"}, "", CodeInvalid,
			"expected one of: wasm, native, static, got docker"},
		{"uppercase name", map[string]string{"murmur.yaml": "name: My-Tool\nversion: '1'\nruntime: tool\n"}, "", CodeBadName,
			"invalid artifact name 'My-Tool': may contain only lowercase letters, digits and '-' (found 'M')"},
		{"leading hyphen", map[string]string{"murmur.yaml": "name: -x\nversion: '1'\nruntime: tool\n"}, "", CodeBadName, "must not start or end with '-'"},
		{"long name", map[string]string{"murmur.yaml": "name: " + strings.Repeat("a", 101) + "\nversion: '1'\nruntime: tool\n"}, "", CodeBadName, "must be at most 100 characters"},
		{"absolute path", map[string]string{"murmur.yaml": toolManifest + "requires_files: [/etc/passwd]\n"}, "", CodeUnsafeFile,
			"requires_files entry '/etc/passwd' has an unsafe path: is an absolute path"},
		{"dot-dot", map[string]string{"murmur.yaml": toolManifest + "requires_files: [../x.wasm]\n"}, "", CodeUnsafeFile,
			"requires_files entry '../x.wasm' has an unsafe path: contains a '..' component"},
		{"symlink", map[string]string{"murmur.yaml": toolManifest + "requires_files: [t.wasm]\n", "real.wasm": emptyComponent, "t.wasm": "->real.wasm"}, "", CodeUnsafeFile,
			"requires_files entry 't.wasm' is a symlink ("},
		{"symlinked directory", map[string]string{"murmur.yaml": toolManifest + "requires_files: [d/t.wasm, x.wasm]\n", "real/t.wasm": emptyComponent, "d": "->real", "x.wasm": emptyComponent}, "", CodeUnsafeFile,
			"is a symlink ("},
		{"dangling symlink is missing", map[string]string{"murmur.yaml": toolManifest + "requires_files: [t.wasm]\n", "t.wasm": "->nowhere"}, "", CodeIO,
			"missing required file 't.wasm' in "},
		{"collision", map[string]string{"murmur.yaml": toolManifest + "requires_files: ['a\\b.wasm', a/b.wasm, t.wasm]\n", "a\\b.wasm": "1", "a/b.wasm": "2", "t.wasm": emptyComponent}, "", CodeUnsafeFile,
			"requires_files entries 'a\\b.wasm' and 'a/b.wasm' both pack as the archive entry 'a/b.wasm'"},
		{"missing file", map[string]string{"murmur.yaml": toolManifest + "requires_files: [t.wasm]\n"}, "", CodeIO, "missing required file 't.wasm' in "},
		{"directory entry", map[string]string{"murmur.yaml": toolManifest + "requires_files: [d]\n", "d/x": ""}, "", CodeIO, "is not a regular file"},
		{"output suffix", map[string]string{"murmur.yaml": toolManifest + "requires_files: [t.wasm]\n", "t.wasm": emptyComponent}, "out.zip", CodeIO,
			"output path must end with .mur.zip: "},
		{"no payload", map[string]string{"murmur.yaml": toolManifest + "requires_files: [sub/t.wasm, ./u.wasm]\n", "sub/t.wasm": emptyComponent, "u.wasm": emptyComponent}, "", CodeNoPayload,
			"missing root .wasm file (expected capsule.wasm or one root *.wasm)"},
		{"two payloads", map[string]string{"murmur.yaml": toolManifest + "requires_files: [b.wasm, a.wasm]\n", "a.wasm": emptyComponent, "b.wasm": emptyComponent}, "", CodeNoPayload,
			"multiple root .wasm files found: a.wasm, b.wasm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			out := tc.output
			if out != "" {
				out = filepath.Join(dir, out)
			}
			_, err := Build(context.Background(), BuildOptions{Source: dir, Output: out})
			var e *diag.Error
			if !errors.As(err, &e) || e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) {
				t.Fatalf("got %v; want %s containing %q", err, tc.code, tc.msg)
			}
			if !strings.HasPrefix(diag.Render(err), "error["+string(tc.code)+"]: ") {
				t.Errorf("rendered as %q", err.Error())
			}
			if tc.code != CodeSyntax && tc.code != CodeMissingField && tc.code != CodeInvalid && e.Hint == "" {
				t.Errorf("%s has no hint telling the user what to do", tc.code)
			}
			if zips, _ := filepath.Glob(filepath.Join(dir, "*.mur.zip")); len(zips) > 0 {
				t.Errorf("a failed build wrote %v", zips)
			}
			if tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(tmps) > 0 {
				t.Errorf("a failed build left %v", tmps)
			}
		})
	}
}

func TestBuildLints(t *testing.T) {
	for _, tc := range []struct {
		name     string
		manifest string
		files    map[string]string
		want     []string
	}{
		{"W-BLD-001 manifest declared again", toolManifest + "requires_files: [t.wasm, murmur.yaml]\n", map[string]string{"t.wasm": emptyComponent},
			[]string{"warning[W-BLD-001]: requires_files entry 'murmur.yaml' is the same file as 'murmur.yaml'"}},
		{"W-BLD-002 capsule.wasm shadows others", toolManifest + "requires_files: [capsule.wasm, extra.wasm]\n", map[string]string{"capsule.wasm": emptyComponent, "extra.wasm": emptyComponent},
			[]string{"warning[W-BLD-002]: root 'capsule.wasm' is always selected as the payload, so extra.wasm ships but never runs"}},
		{"W-BLD-003 build inputs", toolManifest + "requires_files: [t.wasm, Cargo.toml, src/lib.rs, target/x.d]\n",
			map[string]string{"t.wasm": emptyComponent, "Cargo.toml": "", "src/lib.rs": "", "target/x.d": ""},
			[]string{"warning[W-BLD-003]: compiled artifact packages build inputs: Cargo.toml, src/lib.rs, target/x.d"}},
		{"skill sources are fine", "name: s\nversion: '1'\nruntime: skill\nrequires_files: [skill.md, notes.rs]\n", map[string]string{"skill.md": "", "notes.rs": ""}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.files["murmur.yaml"] = tc.manifest
			writeTree(t, dir, tc.files)
			var got []string
			_, err := Build(context.Background(), BuildOptions{Source: dir, OnWarning: func(w Warning) { got = append(got, w.String()) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("warnings %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) || !strings.Contains(got[i], "\n  → https://docs.murmur.nexus/") {
					t.Errorf("warning %q, want prefix %q and a doc link", got[i], tc.want[i])
				}
			}
		})
	}
}

func TestBuildNativeAndStaticNeedNoPayload(t *testing.T) {
	for _, m := range []string{
		"name: n\nversion: '1'\nruntime: tool\nimplementation: native\n",
		"name: s\nversion: '1'\nruntime: skill\nrequires_files: []\n",
		"name: e\nversion: '1'\nruntime: tool\nexecution: STATIC\n",
	} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"murmur.yaml": m})
		if _, err := Build(context.Background(), BuildOptions{Source: dir}); err != nil {
			t.Errorf("%q: %v", m, err)
		}
	}
}

func TestBuildSkipsOutputInsideSource(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"murmur.yaml": toolManifest + "requires_files: [t.wasm, my-tool-0.1.0.mur.zip]\n", "t.wasm": emptyComponent, "my-tool-0.1.0.mur.zip": "old"})
	res, err := Build(context.Background(), BuildOptions{Source: dir})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(res.Entries, "my-tool-0.1.0.mur.zip") {
		t.Errorf("the output packed itself: %v", res.Entries)
	}
}

func TestBuildSecretScanHook(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"murmur.yaml": toolManifest + "requires_files: [t.wasm]\n", "t.wasm": emptyComponent})
	var got []string
	_, err := Build(context.Background(), BuildOptions{Source: dir,
		ScanSecrets: func(b []byte) []Warning {
			if !bytes.Contains(b, []byte("my-tool")) {
				t.Error("scan did not get the source manifest")
			}
			return []Warning{{Code: "W-SEC-004", Msg: "secret"}}
		},
		OnWarning: func(w Warning) { got = append(got, w.Code) }})
	if err != nil || !slices.Equal(got, []string{"W-SEC-004"}) {
		t.Errorf("warnings %v, err %v", got, err)
	}
}

// emptyComponent is the smallest valid component: the preamble alone.
const emptyComponent = "\x00asm\x0d\x00\x01\x00"
