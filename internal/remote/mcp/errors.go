package mcp

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
)

// CodeServer is a server that failed to start or to answer: the session
// cannot run without the tools it declared.
const CodeServer diag.Code = "E-RUN-001"

// serverError is why server name could not be used, naming it; a coded
// cause (a sealed root that could not be built) keeps its code.
func serverError(name, what string, err error) error {
	code := CodeServer
	var d *diag.Error
	if errors.As(err, &d) {
		code = d.Code
	}
	return &diag.Error{Code: code, Err: err, Msg: fmt.Sprintf("mcp server '%s' %s: %v", name, what, err),
		Hint: fmt.Sprintf("check mcp.servers entry '%s' in murmur.yaml: a local server's command, args and shell.interpreter_runtime grants, or a remote server's url; `mur run --explain-scope` shows what it may reach", name)}
}
