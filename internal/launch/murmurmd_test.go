package launch_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MURMUR.md through a real run says what is there: a skill is marked as
// called by name (Murmur's marker), an unset context budget is not "not
// set tokens", and checkpoints/ is shown as there only when it is.
func TestMurmurMDSaysWhatIsThere(t *testing.T) {
	for _, tc := range []struct {
		name        string
		checkpoints bool // the --workdir already has checkpoints/
		want        string
	}{
		{"no checkpoints yet", false, "└── checkpoints/       not there yet: create it"},
		{"checkpoints kept from before", true, "└── checkpoints/       your own notes, kept across turns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loopProject(t, "", `[{"text": "ok"}]`)
			appendFile(t, filepath.Join(p.dir, "murmur.yaml"), "  - {name: house-style, runtime: skill, source: style.md}\n")
			appendFile(t, filepath.Join(p.dir, "style.md"), "\nAlways answer in haiku.\n")
			work := t.TempDir()
			if tc.checkpoints {
				if err := os.Mkdir(filepath.Join(work, "checkpoints"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			p.mur(0, "run", "--task", "go", "--workdir", work)
			mds, _ := filepath.Glob(filepath.Join(work, ".murmur", "ses_*", "MURMUR.md"))
			if len(mds) != 1 {
				t.Fatalf("MURMUR.md: %v", mds)
			}
			b, err := os.ReadFile(mds[0])
			if err != nil {
				t.Fatal(err)
			}
			md := string(b)
			for _, want := range []string{
				"- **house-style** — Always answer in haiku. *(call by name to load guidance)*",
				"- Context budget: not set (compaction not configured)\n",
				tc.want,
			} {
				if !strings.Contains(md, want) {
					t.Errorf("MURMUR.md lacks %q:\n%s", want, md)
				}
			}
			if strings.Contains(md, "not set tokens") {
				t.Errorf("MURMUR.md says \"not set tokens\":\n%s", md)
			}
			if _, err := os.Stat(filepath.Join(work, "checkpoints")); (err == nil) != tc.checkpoints {
				t.Errorf("checkpoints/ there: %v, want %v", err == nil, tc.checkpoints)
			}
		})
	}
}
