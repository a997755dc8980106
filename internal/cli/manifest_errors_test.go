package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that reads a capsule manifest reports its errors in the
// one positioned form, file:line:col: error[CODE], whatever reads it: mur
// install used to print E-IO-003 without a position where mur run gave
// one.
func TestManifestErrorsRenderAlikeInInstallAndRun(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"wrong type", "name: demo\nversion: \"0.1.0\"\nartifacts:\n  - name: x\n    version: [1]\n",
			"murmur.yaml:5:14: error[E-MAN-002]: field 'artifacts[0].version' has invalid type (expected a string, got sequence)"},
		{"missing name", "name: demo\nversion: \"0.1.0\"\nartifacts:\n  - version: \"1.0.0\"\n",
			"murmur.yaml:4:5: error[E-MAN-003]: invalid artifact declaration at index 0: missing required field 'name'"},
		{"tab indentation", "name: demo\nversion: \"0.1.0\"\nartifacts:\n\t- name: x\n",
			"murmur.yaml:4: error[E-MAN-002]: YAML syntax error: found character that cannot start any token\n  hint: line 4 is indented with a tab; YAML indentation must use spaces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, capsule := sandbox(t)
			path := filepath.Join(capsule, "murmur.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			want := "mur: " + filepath.Join(capsule, tc.want)
			install := mur(t, "install")
			install.want(t, 1, "", want)
			run := mur(t, "run")
			run.want(t, 1, "", want)
			if first := firstLine(install.stderr); first != firstLine(run.stderr) {
				t.Errorf("install and run render the error differently:\n%s\n%s", first, firstLine(run.stderr))
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
