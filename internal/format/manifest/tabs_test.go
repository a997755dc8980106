package manifest

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestTabIndentationHint(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, hint string
	}{
		{"tab before a key", "name: x\nversion: \"1\"\nartifacts:\n\t- name: a\n", "line 4 is indented with a tab"},
		{"tab after spaces", "name: x\ncapabilities:\n  \tenv: {}\n", "line 3 is indented with a tab"},
		{"no tab keeps the general hint", "name: x\nversion: [\"1\"\n", "check indentation and quoting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse([]byte(tc.yaml), "", ParseOptions{})
			if err == nil || !strings.Contains(diag.Render(err), "hint: "+tc.hint) {
				t.Errorf("error %v, want hint %q", err, tc.hint)
			}
		})
	}
}
