package sandbox

import (
	"path/filepath"
	"testing"
)

// A scoped plan mounts the workdir noexec only where Landlock denies
// execution there and the host can mount in a user namespace; sealed has
// its own noexec root, and workdir_exec asks for the opposite.
func TestPlanNoexecWorkdir(t *testing.T) {
	wd, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	scoped := Scope{LandlockABI: 4, NetNS: true, Seccomp: true, MountNS: true, Workdir: wd}
	for _, tc := range []struct {
		name string
		edit func(*Scope)
		want string
	}{
		{"scoped", func(*Scope) {}, wd},
		{"workdir_exec", func(s *Scope) { s.WorkdirExec = true }, ""},
		{"no mount namespace", func(s *Scope) { s.MountNS = false }, ""},
		{"no user namespace", func(s *Scope) { s.NetNS = false }, ""},
		{"no Landlock", func(s *Scope) { s.LandlockABI = 0 }, ""},
		{"sealed", func(s *Scope) { s.Sealed = true }, ""},
		{"a workdir that does not resolve", func(s *Scope) { s.Workdir = filepath.Join(wd, "gone") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := scoped
			tc.edit(&s)
			p := s.Plan("net:[1]")
			if p == nil {
				t.Fatal("no plan")
			}
			if p.NoexecWorkdir != tc.want {
				t.Errorf("NoexecWorkdir = %q, want %q", p.NoexecWorkdir, tc.want)
			}
		})
	}
}
