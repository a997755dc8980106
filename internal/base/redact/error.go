package redact

// Error is err with the secrets taken out of its text; errors.Is and
// errors.As still see err (its fields are the caller's to keep to
// itself: only the text is what gets printed, logged and sent).
func (r *Redactor) Error(err error) error {
	m := r.load()
	if err == nil || m == nil {
		return err
	}
	msg := err.Error()
	red := m.redact(msg)
	if red == msg {
		return err
	}
	return &redactedError{err: err, msg: red}
}

// redactedError keeps an error's identity with the secret out of its
// text.
type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
