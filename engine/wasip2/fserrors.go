package wasip2

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/mur-go/mur/engine/component"
)

// fsError is a filesystem error the host decides on itself (a refused
// capability, a wrong descriptor kind), as opposed to one from the OS.
type fsError struct {
	code uint32
	msg  string
}

func (e *fsError) Error() string { return e.msg + " (" + fsErrorNames[e.code] + ")" }

func fsErr(code uint32, msg string) error { return &fsError{code: code, msg: msg} }

var (
	errReadOnly     = fsErr(fsReadOnly, "the directory is granted read-only")
	errNotPermitted = fsErr(fsNotPermitted, "the path leaves the granted directory")
)

// fsCode maps an error to a wasi:filesystem error-code; ok is false for
// errors that are not about the filesystem.
func fsCode(err error) (code uint32, ok bool) {
	var fe *fsError
	if errors.As(err, &fe) {
		return fe.code, true
	}
	// os.Root refuses paths leaving the root with an unexported error;
	// its text is the only handle on it.
	if strings.Contains(err.Error(), "path escapes from parent") {
		return fsNotPermitted, true
	}
	if code, ok := errnoCode(err); ok {
		return code, true
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fsNoEntry, true
	case errors.Is(err, fs.ErrExist):
		return fsExist, true
	case errors.Is(err, fs.ErrPermission):
		return fsAccess, true
	case errors.Is(err, fs.ErrInvalid):
		return fsInvalid, true
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fsIO, true
	}
	return 0, false
}

// fsRes is the result of a descriptor operation.
type fsRes[T any] = res[T, uint32]

// fsResult is a descriptor operation's result: a Go error becomes its
// error-code (io for errors that carry none), except a store limit, which
// ends the call.
func fsResult[T any](v T, err error) (fsRes[T], error) {
	if err == nil {
		return okv[uint32](v), nil
	}
	var limit *component.LimitError
	if errors.As(err, &limit) {
		return fsRes[T]{}, err
	}
	code, ok := fsCode(err)
	if !ok {
		code = fsIO
	}
	return errv[T](code), nil
}
