package diag

import (
	"errors"
	"strings"
)

// Rewriter is a wrapper whose text is its cause's text rewritten, as the
// session's redactor rewrites it: Render rewrites the cause's rendering
// the same way, so what the wrapper hides stays hidden.
type Rewriter interface {
	error
	Unwrap() error
	Rewrite(text string) string
}

// Render is err as the CLI prints it: every coded error in err's chain
// in its rendered form, "[pos: ]error[CODE]: message" with a "  hint: …"
// line, in the place its text has in err's text, so the wrappers around
// it ("installing x: …") and the errors joined beside it keep theirs. An
// error with no coded error in its chain renders as its text.
func Render(err error) string {
	if err == nil {
		return ""
	}
	var d *Error
	if !errors.As(err, &d) {
		return err.Error()
	}
	switch e := err.(type) {
	case *Error:
		return e.render()
	case Rewriter:
		return e.Rewrite(Render(e.Unwrap()))
	case interface{ Unwrap() error }:
		return splice(err.Error(), []error{e.Unwrap()})
	case interface{ Unwrap() []error }:
		return splice(err.Error(), e.Unwrap())
	}
	return err.Error()
}

// splice is text with each cause's text, where the wrapper put it,
// replaced by the cause's rendering. A lone cause is looked for from the
// end (a prefix may quote a part of it); joined causes in order.
func splice(text string, causes []error) string {
	var b strings.Builder
	for _, c := range causes {
		if c == nil {
			continue
		}
		t := c.Error()
		i := strings.Index(text, t)
		if len(causes) == 1 {
			i = strings.LastIndex(text, t)
		}
		if t == "" || i < 0 {
			continue
		}
		b.WriteString(text[:i])
		b.WriteString(Render(c))
		text = text[i+len(t):]
	}
	b.WriteString(text)
	return b.String()
}

// Text is err's text on one line, for quoting several joined failures
// inside one message.
func Text(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
