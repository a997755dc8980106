package server

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/mur-go/mur/internal/diag"
)

// Error codes of a serve that could not start (a2a-cli.md §1.1).
const (
	CodePortInUse = "E-RUN-010"
	CodeIO        = "E-IO-003"
)

// ErrLifecycle marks lifecycle options Serve refuses.
var ErrLifecycle = errors.New("invalid lifecycle")

func lifecycleError(msg, hint string) error {
	return &diag.Error{Code: CodeIO, Msg: msg, Hint: hint, Err: ErrLifecycle}
}

// bindError is E-RUN-010 for a configured port already in use, else E-IO-003.
func bindError(addr string, port uint16, err error) error {
	if port != 0 && errors.Is(err, syscall.EADDRINUSE) {
		return &diag.Error{Code: CodePortInUse, Msg: fmt.Sprintf("internal_port %d is already bound", port),
			Hint: "stop what listens there or change network.internal_port in murmur.yaml", Err: err}
	}
	return &diag.Error{Code: CodeIO, Msg: fmt.Sprintf("could not bind the A2A server on %s: %v", addr, err), Err: err}
}
