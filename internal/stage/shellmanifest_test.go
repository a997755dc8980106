package stage

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
)

// An on-stage hook's manifest is kept for the shell tool it names, read
// once as the inventory lists it; text that is no tool manifest is kept
// for describe but listed by nothing; other names change nothing.
func TestSetShellManifest(t *testing.T) {
	generated := func() []ShellTool {
		_, rec := shellManifest("git")
		return []ShellTool{{Name: "git", Generated: true, ManifestYAML: []byte("generated"), Manifest: rec}, {Name: "jq"}}
	}
	cases := []struct {
		name, bin, content string
		want               *manifest.ToolRecord // git's, after
		wantYAML           string
		err                string
	}{
		{"a description alone", "git", "description: from on-stage\n",
			&manifest.ToolRecord{Description: "from on-stage", InputSchema: manifest.DefaultInputSchema}, "description: from on-stage\n", ""},
		{"no tool manifest", "git", "- not a mapping\n", nil, "- not a mapping\n", "expected mapping"},
		{"not a shell tool", "curl", "description: x\n", generated()[0].Manifest, "generated", ""},
		{"an artifact's directory", "jq", "description: x\n", generated()[0].Manifest, "generated", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Staged{shellTools: generated()}
			err := s.onStageView().SetShellManifest(c.bin, []byte(c.content))
			if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
				t.Fatalf("err = %v, want %q", err, c.err)
			}
			git := s.shellTools[0]
			if string(git.ManifestYAML) != c.wantYAML || (git.Manifest == nil) != (c.want == nil) || c.want != nil && *git.Manifest != *c.want {
				t.Errorf("git = %s %+v, want %s %+v", git.ManifestYAML, git.Manifest, c.wantYAML, c.want)
			}
			if jq := s.shellTools[1]; jq.Generated || jq.ManifestYAML != nil || jq.Manifest != nil {
				t.Errorf("jq = %+v", jq)
			}
		})
	}
}

// Once staging is over the hooks' view no longer changes a shell tool:
// the loop and the tools hold copies made from what on-stage left.
func TestShellManifestOnlyAtOnStage(t *testing.T) {
	_, rec := shellManifest("git")
	s := &Staged{shellTools: []ShellTool{{Name: "git", Generated: true, ManifestYAML: []byte("generated"), Manifest: rec}}}
	loop := s.Loop()
	if s.Hooks().SetShellManifest != nil {
		t.Fatal("the hooks' view after staging can set a shell tool's manifest")
	}
	if err := s.onStageView().SetShellManifest("git", []byte("description: on-stage\n")); err != nil {
		t.Fatal(err)
	}
	if string(loop.ShellTools[0].ManifestYAML) != "generated" {
		t.Fatalf("a view taken before changed with the staged capsule: %s", loop.ShellTools[0].ManifestYAML)
	}
}
