package wasip2

import "testing"

func TestLastName(t *testing.T) {
	for _, tc := range []struct {
		p, parent, name string
		slash, ok       bool
	}{
		{"f", ".", "f", false, true},
		{"a/b", "a/", "b", false, true},
		{"a//b", "a//", "b", false, true},
		{"a/b/", "a/", "b", true, true},
		{"a/b//", "a/", "b", true, true},
		{"./f", "./", "f", false, true},
		{".", ".", ".", false, false},
		{"./", ".", ".", true, false},
		{"a/..", "a/", "..", false, false},
		{"a/../", "a/", "..", true, false},
		{"a/.", "a/", ".", false, false},
	} {
		parent, name, slash, ok := lastName(tc.p)
		if parent != tc.parent || name != tc.name || slash != tc.slash || ok != tc.ok {
			t.Errorf("lastName(%q) = %q, %q, %v, %v; want %q, %q, %v, %v", tc.p, parent, name, slash, ok, tc.parent, tc.name, tc.slash, tc.ok)
		}
	}
}
