package cli

import (
	"regexp"
	"testing"
)

func TestVersion(t *testing.T) {
	o := mur(t, "version")
	o.want(t, 0, "", "")
	want := regexp.MustCompile(`^mur \S+\ngo go1\.\S+\nwazero (v\S+|unknown)\n$`)
	if !want.MatchString(o.stdout) {
		t.Errorf("version output:\n%s\nwant it to match %s", o.stdout, want)
	}
}
