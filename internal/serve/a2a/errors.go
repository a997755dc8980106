package a2a

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/httpbound"
)

// Error codes of a serve that could not start (a2a-cli.md §1.1).
const (
	CodePortInUse diag.Code = "E-RUN-010"
	CodeIO        diag.Code = "E-IO-003"
)

// ErrLifecycle marks lifecycle options Serve refuses.
var ErrLifecycle = errors.New("invalid lifecycle")

func lifecycleError(msg, hint string) error {
	return &diag.Error{Code: CodeIO, Msg: msg, Hint: hint, Err: ErrLifecycle}
}

// CheckExposure refuses to serve a bind address that reaches beyond this
// machine without a token, unless insecureNoToken says to: anyone who can
// reach the port could then give the agent tasks, with its tools and
// grants. E-IO-003, Murmur's code for an option that cannot be used.
func CheckExposure(bind, token string, insecureNoToken bool) error {
	if bind == "" || httpbound.Loopback(bind) || token != "" || insecureNoToken {
		return nil
	}
	return &diag.Error{Code: CodeIO,
		Msg:  fmt.Sprintf("refusing to serve the agent on %s without a token: anyone who can reach that address could give it tasks", bind),
		Hint: "set " + TokenEnv + " to a secret clients must send, or bind to 127.0.0.1, or pass --insecure-no-token to serve it open anyway"}
}

// bindError is E-RUN-010 for a configured port already in use, else E-IO-003.
func bindError(addr string, port uint16, err error) error {
	if port != 0 && errors.Is(err, syscall.EADDRINUSE) {
		return &diag.Error{Code: CodePortInUse, Msg: fmt.Sprintf("internal_port %d is already bound", port),
			Hint: "stop what listens there or change network.internal_port in murmur.yaml", Err: err}
	}
	return &diag.Error{Code: CodeIO, Msg: fmt.Sprintf("could not bind the A2A server on %s: %v", addr, err), Err: err}
}
