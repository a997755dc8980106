package diag

import "errors"

// Mark is err classified for its callers: errors.Is and errors.As find
// each mark (the step a pipeline failed at, the kind of a failure, how a
// run ended) as they find err's own chain, while the text and the
// rendering stay err's. A nil err gives the marks alone, for a coded
// error with no other cause to keep as its Err.
func Mark(err error, marks ...error) error {
	switch {
	case len(marks) == 0:
		return err
	case err == nil && len(marks) == 1:
		return marks[0]
	case err == nil:
		return errors.Join(marks...)
	}
	return &marked{err: err, marks: marks}
}

type marked struct {
	err   error
	marks []error
}

func (m *marked) Error() string { return m.err.Error() }
func (m *marked) Unwrap() error { return m.err }

func (m *marked) Is(target error) bool {
	for _, k := range m.marks {
		if errors.Is(k, target) {
			return true
		}
	}
	return false
}

func (m *marked) As(target any) bool {
	for _, k := range m.marks {
		if errors.As(k, target) {
			return true
		}
	}
	return false
}
