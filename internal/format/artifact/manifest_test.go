package artifact

import (
	"slices"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestParseManifestPackagingType(t *testing.T) {
	for _, tc := range []struct {
		yaml     string
		want     RuntimeType
		requires []string
	}{
		{"name: a\nversion: '1'\nruntime: tool\n", Wasm, nil},
		{"name: a\nversion: '1'\nruntime: tool\nimplementation: native\n", Native, nil},
		{"name: a\nversion: '1'\nruntime: tool\nimplementation: Native\n", Wasm, nil},
		{"name: a\nversion: '1'\nruntime: hook\nimplementation: native\n", Wasm, nil},
		{"name: a\nversion: '1'\nruntime: skill\n", Static, []string{"skill.md"}},
		{"name: a\nversion: '1'\nruntime: skill\nrequires_files: []\n", Static, []string{}},
		{"name: a\nversion: '1'\nruntime: tool\nexecution: Native\n", Native, nil},
		{"name: a\nversion: '1'\nruntime: driver\nimplementation: 7\nunknown: key\n", Wasm, nil},
	} {
		m, err := ParseManifest([]byte(tc.yaml))
		if err != nil {
			t.Errorf("%q: %v", tc.yaml, err)
			continue
		}
		if m.PackagingType() != tc.want || !slices.Equal(m.RequiresFiles, tc.requires) {
			t.Errorf("%q: type %s files %q; want %s %q", tc.yaml, m.PackagingType(), m.RequiresFiles, tc.want, tc.requires)
		}
	}
}

func TestParseManifestTypeNames(t *testing.T) {
	for y, want := range map[string]string{
		"name: yes\nversion: '1'\nruntime: tool\n":    "", // yes is a string in YAML 1.2
		"name: true\nversion: '1'\nruntime: tool\n":   "murmur.yaml: field 'name' has invalid type (expected string, got boolean)",
		"name: ~\nversion: '1'\nruntime: tool\n":      "murmur.yaml: missing required field 'name'",
		"name: [a]\nversion: '1'\nruntime: tool\n":    "murmur.yaml: field 'name' has invalid type (expected string, got sequence)",
		"name: {a: 1}\nversion: '1'\nruntime: tool\n": "murmur.yaml: field 'name' has invalid type (expected string, got mapping)",
		"- a\n": "murmur.yaml: field '<root>' has invalid type (expected mapping, got sequence)",
		"name: a\nversion: '1'\nruntime: tool\nrequires_files: [1]\n": "murmur.yaml: field 'requires_files' has invalid type (expected sequence of strings, got number)",
	} {
		_, err := ParseManifest([]byte(y))
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", y, err)
		case want != "" && (err == nil || err.(*diag.Error).Msg != want):
			t.Errorf("%q: got %v, want %q", y, err, want)
		}
	}
}
