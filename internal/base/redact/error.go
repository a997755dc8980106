package redact

import "github.com/mur-go/mur/internal/base/diag"

// Error is err with the secrets taken out of its text and out of its
// rendering (diag.Render: a coded error's hint too); errors.Is and
// errors.As still see err (its fields are the caller's to keep to itself:
// only the text is what gets printed, logged and sent).
func (r *Redactor) Error(err error) error {
	m := r.load()
	if err == nil || m == nil {
		return err
	}
	msg := err.Error()
	red := m.redact(msg)
	if rendered := diag.Render(err); red == msg && m.redact(rendered) == rendered {
		return err
	}
	return &redactedError{err: err, msg: red, m: m}
}

// redactedError keeps an error's identity with the secret out of its
// text; as a diag.Rewriter it takes it out of the error's rendering too.
type redactedError struct {
	err error
	msg string
	m   *matcher
}

func (e *redactedError) Error() string              { return e.msg }
func (e *redactedError) Unwrap() error              { return e.err }
func (e *redactedError) Rewrite(text string) string { return e.m.redact(text) }
