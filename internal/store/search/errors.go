package search

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/termtext"
)

// CodeIO is Murmur's code for every failure to read an index (E-IO-003).
const CodeIO diag.Code = "E-IO-003"

// ErrBadSource marks a --registry value that is none of local, an
// absolute path, an http(s) URL or an oci:// registry: the command line
// is wrong.
var ErrBadSource = errors.New("bad index source")

func readError(from string, err error) *diag.Error {
	return diag.Wrap(CodeIO, err, "failed to read artifact index from %s: %v", from, err)
}

func fetchError(from string, err error) *diag.Error {
	return diag.Wrap(CodeIO, err, "failed to fetch artifact index from %s: %v", from, err).
		WithHint("check the URL and the network, or search the installed artifacts with --registry local")
}

func parseError(from string, err error) *diag.Error {
	return diag.Wrap(CodeIO, err, "failed to parse artifact index from %s: %s", from, termtext.Escape(err.Error(), true))
}

func schemaError(from, version string) *diag.Error {
	return diag.New(CodeIO, "unsupported artifact index schema version '%s' from %s (expected 1)", termtext.Escape(version, true), from).
		WithHint("this mur reads index schema version 1; point --registry at an index of that version")
}

func tooLargeError(from string) *diag.Error {
	return diag.New(CodeIO, "artifact index from %s is larger than %d bytes (%d MiB); mur refuses it", from, MaxIndexBytes, MaxIndexBytes>>20).
		WithHint("an index of this size is not a plausible catalogue; check the URL or path")
}

func sourceError(value string) error {
	return diag.Mark(fmt.Errorf("--registry '%s' is not 'local', an absolute file path, an http(s) URL or an oci:// registry (give a file as an absolute path: $PWD/%[1]s)",
		termtext.Escape(value, true)), ErrBadSource)
}
