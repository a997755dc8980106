package artifact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestInferSkillName(t *testing.T) {
	for in, want := range map[string]string{
		"./Review Skill/":        "review_skill",
		"skills/code-review":     "code-review",
		"/x/My.Skill.ZIP":        "my_skill",
		`C:\skills\Hello__World`: "hello_world",
		"./--__--/":              "skill",
		"a/日本":                   "skill",
	} {
		if got := InferSkillName(in); got != want {
			t.Errorf("InferSkillName(%q) = %q, want %q", in, got, want)
		}
	}
	dir := filepath.Join(t.TempDir(), "Team-Notes")
	os.Mkdir(dir, 0o755)
	t.Chdir(dir)
	if got := InferSkillName("."); got != "team-notes" {
		t.Errorf(`InferSkillName(".") = %q, want the directory's name`, got)
	}
}

func readPackage(t *testing.T, path string) *Package {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(data, DefaultMaxDecompressedBytes)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuildSkillFromDirectory(t *testing.T) {
	src := filepath.Join(t.TempDir(), "review")
	writeTree(t, src, map[string]string{"SKILL.md": "# Review", "notes.txt": "n", "sub/deep.txt": "not packed"})
	out := t.TempDir()
	res, err := BuildSkill(context.Background(), SkillOptions{Skill: src, OutDir: out, Summary: "It's for reviews"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != filepath.Join(out, "review-0.1.0.mur.zip") || res.Type != Static {
		t.Errorf("result %+v", res)
	}
	p := readPackage(t, res.Path)
	if !slices.Equal(p.Names(), []string{"murmur.yaml", "skill.md", "notes.txt"}) {
		t.Errorf("entries %v", p.Names())
	}
	m, _ := p.Manifest()
	if string(m) != "name: review\nversion: '0.1.0'\nruntime: skill\ndescription: 'It''s for reviews'\n" {
		t.Errorf("generated manifest:\n%s", m)
	}
	if s, _ := p.Skill(); string(s) != "# Review" {
		t.Errorf("skill.md = %q", s)
	}
}

func TestBuildSkillKeepsOwnManifest(t *testing.T) {
	src := t.TempDir()
	own := "# mine\nname: custom\nversion: \"2.0.0\"\nruntime: skill\n"
	writeTree(t, src, map[string]string{"skill.md": "s", "Murmur.yaml": own})
	out := t.TempDir()
	res, err := BuildSkill(context.Background(), SkillOptions{Skill: "named", Source: src, Version: "1.2.3", OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	// The file name follows --skill and --version, the manifest is verbatim.
	if filepath.Base(res.Path) != "named-1.2.3.mur.zip" {
		t.Errorf("path %s", res.Path)
	}
	if m, _ := readPackage(t, res.Path).Manifest(); string(m) != own {
		t.Errorf("manifest changed:\n%s", m)
	}
	res, err = BuildSkill(context.Background(), SkillOptions{Skill: "named", Source: src, Version: "1.2.4", OutDir: out, Summary: "new"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := readPackage(t, res.Path).Manifest()
	if !strings.Contains(string(m), "description: new") || !strings.Contains(string(m), "name: custom") {
		t.Errorf("summary not applied:\n%s", m)
	}
}

func TestBuildSkillFromZip(t *testing.T) {
	zipPath := filepath.Join(t.TempDir(), "Packed.zip")
	os.WriteFile(zipPath, makeZip(t, entry{name: "skill.MD", data: []byte("z")}, entry{name: "dir/x", data: []byte("skipped")}, entry{name: "a.txt", data: []byte("a")}), 0o644)
	res, err := BuildSkill(context.Background(), SkillOptions{Skill: zipPath, OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(res.Path) != "packed-0.1.0.mur.zip" || !slices.Equal(res.Entries, []string{"murmur.yaml", "skill.md", "a.txt"}) {
		t.Errorf("result %s %v", res.Path, res.Entries)
	}
}

func TestBuildSkillErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		code  diag.Code
		msg   string
	}{
		{"no SKILL.md", map[string]string{"readme.md": ""}, CodeNotFound, "SKILL.md not found in "},
		{"wrong runtime", map[string]string{"skill.md": "", "murmur.yaml": "name: a\nversion: '1'\nruntime: tool\n"}, CodeInvalid,
			`murmur.yaml declares runtime: "tool" but --skill requires runtime: skill`},
		{"bad yaml", map[string]string{"skill.md": "", "murmur.yaml": "name: [\n"}, CodeSyntax, "YAML syntax error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := t.TempDir()
			writeTree(t, src, tc.files)
			out := t.TempDir()
			_, err := BuildSkill(context.Background(), SkillOptions{Skill: src, OutDir: out})
			var e *diag.Error
			if !errors.As(err, &e) || e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) {
				t.Fatalf("got %v, want %s %q", err, tc.code, tc.msg)
			}
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("failed skill build wrote %v", ents)
			}
		})
	}
	_, err := BuildSkill(context.Background(), SkillOptions{Skill: "./does-not-exist", OutDir: t.TempDir()})
	if e, ok := err.(*diag.Error); !ok || e.Code != CodeNotFound {
		t.Errorf("missing input: %v", err)
	}
}
