package stage

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Discard takes back everything staging made, in the project and in a
// --workdir, and nothing else: a directory another session made in the
// same place meanwhile stays.
func TestDiscardLeavesNothingBehind(t *testing.T) {
	for _, tc := range []struct {
		name    string
		workdir bool
	}{{"default workdir", false}, {"--workdir", true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.wasmTool(f.local, "word-count", "0.1.0", "")
			opts := f.options(f.capsule(agentCapsule))
			opts.Task = "count them"
			top := f.project
			if tc.workdir {
				top = t.TempDir()
				opts.Workdir = top
				if err := os.WriteFile(filepath.Join(top, "mine.txt"), []byte("mine"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := tree(t, top)
			s, err := Stage(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			// Another run's session, made after this one's: it and the
			// directory holding it stay.
			other := filepath.Join(filepath.Dir(s.SessionDir), "ses_other")
			if err := os.Mkdir(other, 0o755); err != nil {
				t.Fatal(err)
			}
			s.Discard()
			parent, _ := filepath.Rel(top, filepath.Dir(other))
			want := append(before, parent, filepath.Join(parent, "ses_other"))
			slices.Sort(want)
			if after := tree(t, top); !slices.Equal(after, want) {
				t.Errorf("after Discard:\n got  %v\n want %v", after, want)
			}
		})
	}
}
