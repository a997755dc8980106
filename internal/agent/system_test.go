package agent

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

func TestSystemPrompt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prompt.md"), []byte("\n  From the file.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const head = "[Capsule]\nName: cap\nVersion: 1.2.3\nWorkdir: /w\nManifest: murmur.yaml (in your workdir)\n" +
		murmurMDNotice + "\n" + untrustedNotice + "\n\n"
	cases := []struct {
		name string
		inf  manifest.Inference
		cli  *string
		want string
		code diag.Code
	}{
		{"none", manifest.Inference{}, nil, head, ""},
		{"inline", manifest.Inference{SystemPrompt: "Be brief."}, nil, head + "Be brief.", ""},
		{"file beside murmur.yaml, trimmed", manifest.Inference{SystemPromptFile: "prompt.md"}, nil, head + "From the file.", ""},
		{"skill artifact", manifest.Inference{SystemPromptArtifact: "persona"}, nil, head + "You are terse.", ""},
		{"cli wins over the manifest, trimmed", manifest.Inference{SystemPrompt: "Be brief."}, strPtr("  From the flag. "), head + "From the flag.", ""},
		{"blank cli is no prompt", manifest.Inference{SystemPromptArtifact: "nobody"}, strPtr(" "), head, ""},
		{"missing file", manifest.Inference{SystemPromptFile: "gone.md"}, nil, "", CodePrompt},
		{"unstaged artifact", manifest.Inference{SystemPromptArtifact: "nobody"}, nil, "", CodePrompt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inf := c.inf
			s := stage.LoopView{ProjectDir: dir, Workdir: stage.NewWorkdir("/w", "/w", nil),
				Capsule:   &manifest.Capsule{Name: "cap", Version: "1.2.3", Inference: &inf},
				Artifacts: []*stage.Artifact{{Name: "persona", Role: stage.RoleSkill, Kind: stage.KindSkill, SkillText: "You are terse.\n"}}}
			p, err := resolveSystem(s, c.cli)
			got := p.system
			var e *diag.Error
			switch {
			case c.code != "":
				if !errors.As(err, &e) || e.Code != c.code || KindOf(err) != KindPrompt {
					t.Fatalf("err = %v, want %s", err, c.code)
				}
			case err != nil:
				t.Fatal(err)
			case got != c.want:
				t.Errorf("system\n got  %q\n want %q", got, c.want)
			}
		})
	}
}

func strPtr(s string) *string { return &s }
