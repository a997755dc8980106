package github

import "testing"

func TestParseRef(t *testing.T) {
	cases := []struct {
		ref, repo, tag, err string
	}{
		{"web-search", DefaultRepo, "", ""},
		{"github:acme/tools@v1.2.0", "acme/tools", "v1.2.0", ""},
		{"", "", "", "artifact reference cannot be empty"},
		{"gitlab:acme/tools@v1", "", "", "unsupported artifact source prefix 'gitlab'"},
		{"github:acme/tools", "", "", "invalid github artifact reference 'github:acme/tools' (expected github:<owner>/<repo>@<tag>)"},
		{"github:acme@v1", "", "", "invalid github artifact reference 'github:acme@v1' (expected github:<owner>/<repo>@<tag>)"},
	}
	for _, c := range cases {
		repo, tag, err := ParseRef(c.ref)
		if got := errText(err); repo != c.repo || tag != c.tag || got != c.err {
			t.Errorf("ParseRef(%q) = %q, %q, %q; want %q, %q, %q", c.ref, repo, tag, got, c.repo, c.tag, c.err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
