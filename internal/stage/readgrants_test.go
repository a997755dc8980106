package stage

import (
	"errors"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// An advisory native tool may read the system directories (it runs the
// host's programs from them): a project whose .env lies under one is
// refused with E-CAP-002, as an interpreter_runtime grant over it is. A
// scoped floor grants no system directory, and WASM guests none either.
func TestSystemDirectoriesHoldNoSecret(t *testing.T) {
	secret := []TrustedPath{{Path: "/usr/local/src/proj/.env", What: ".env", Secret: true}}
	native := []*Artifact{{Name: "tool", Kind: KindNative}}
	for _, tc := range []struct {
		name    string
		floor   policy.Class
		arts    []*Artifact
		refused bool
	}{
		{"advisory native tool", policy.Advisory, native, true},
		{"scoped native tool", policy.Scoped, native, false},
		{"advisory WASM tool", policy.Advisory, []*Artifact{{Name: "tool", Kind: KindWasm}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Staged{Capsule: &manifest.Capsule{}, Artifacts: tc.arts, Workdir: Workdir{trusted: secret},
				Containment: Containment{Declared: tc.floor}}
			err := s.checkReadGrants()
			var d *diag.Error
			if refused := errors.As(err, &d) && d.Code == CodeScope; refused != tc.refused {
				t.Fatalf("err = %v, want refused %v", err, tc.refused)
			}
		})
	}
}
