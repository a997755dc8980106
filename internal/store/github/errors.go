package github

import (
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/store/registry"
)

// notFound is E-REG-001: the release or the asset is not there.
func notFound(target, source, reason string) *diag.Error {
	return &diag.Error{Code: registry.CodeNotFound, Err: registry.ErrNotFound,
		Msg:  fmt.Sprintf("could not resolve '%s'\n  %s — %s", target, source, reason),
		Hint: "check the name; use an explicit source URI: mur install github:<owner>/<repo>@<tag>"}
}

// refused is E-REG-002: the release or an asset is not what a release
// can be, or its bytes are not what the release records.
func refused(source, asset, reason string) *diag.Error {
	return &diag.Error{Code: registry.CodeIntegrity, Err: registry.ErrIntegrity,
		Msg:  fmt.Sprintf("refused %s from %s: %s", asset, source, reason),
		Hint: "the release is damaged or was tampered with; ask its publisher to fix it, or install a package you built: mur install ./<name>-<version>.mur.zip"}
}

// failure is E-IO-003: the API could not be asked or did not answer.
func failure(source, what string, err error) *diag.Error {
	return &diag.Error{Code: registry.CodeIO, Err: err,
		Msg:  fmt.Sprintf("%s from %s failed: %v", what, source, err),
		Hint: "check the network; set GITHUB_TOKEN if GitHub limits anonymous requests"}
}
