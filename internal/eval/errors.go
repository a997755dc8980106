package eval

import "github.com/mur-go/mur/internal/base/diag"

// Codes mur eval reports, verbatim from Murmur.
const (
	// CodeParse is a line of an eval file or dataset that does not
	// decode (its FILE:LINE in the error's position).
	CodeParse diag.Code = "E-EVAL-001"
	// CodeSession is a session named on the command line that is not
	// there, or is ambiguous.
	CodeSession diag.Code = "E-EVAL-002"
	// CodeNotFound is a file that does not exist.
	CodeNotFound diag.Code = "E-IO-001"
	// CodeIO is any other failure to read, and an empty dataset.
	CodeIO diag.Code = "E-IO-003"
	// CodeMissing is a manifest without the scorers an eval run needs.
	CodeMissing diag.Code = "E-MAN-001"
	// CodeInvalid is a manifest whose eval settings cannot be run.
	CodeInvalid diag.Code = "E-MAN-003"
	// CodeNotImplemented is what Murmur has and mur-go does not do.
	CodeNotImplemented diag.Code = "E-RUN-001"
)
