package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// upper is a Rewriter, as the session's redactor is one.
type upper struct{ err error }

func (u *upper) Error() string              { return u.Rewrite(u.err.Error()) }
func (u *upper) Unwrap() error              { return u.err }
func (u *upper) Rewrite(text string) string { return strings.ReplaceAll(text, "key", "[REDACTED]") }

func TestRender(t *testing.T) {
	hinted := New("E-IO-003", "zip entry '%s' not found", "x").WithHint("rebuild it")
	placed := New("E-MAN-003", "bad").At(Pos{File: "murmur.yaml", Path: "name", Line: 4, Column: 7})
	for _, tc := range []struct {
		name       string
		err        error
		text, want string
	}{
		{"plain", errors.New("boom"), "boom", "boom"},
		{"coded", New("E-RUN-001", "failed"), "failed", "error[E-RUN-001]: failed"},
		{"hint", hinted, "zip entry 'x' not found", "error[E-IO-003]: zip entry 'x' not found\n  hint: rebuild it"},
		{"position", placed, "murmur.yaml:4:7: bad", "murmur.yaml:4:7: error[E-MAN-003]: bad"},
		{"line only", New("E-MAN-002", "tab").At(Pos{File: "m.yaml", Line: 2}), "m.yaml:2: tab", "m.yaml:2: error[E-MAN-002]: tab"},
		{"file only", New("E-IO-003", "gone").At(Pos{File: "m.yaml"}), "m.yaml: gone", "m.yaml: error[E-IO-003]: gone"},
		{"wrapped", fmt.Errorf("installing x: %w", hinted), "installing x: zip entry 'x' not found",
			"installing x: error[E-IO-003]: zip entry 'x' not found\n  hint: rebuild it"},
		{"wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b: %w", placed)), "a: b: murmur.yaml:4:7: bad",
			"a: b: murmur.yaml:4:7: error[E-MAN-003]: bad"},
		{"joined", errors.Join(placed, New("E-MAN-001", "missing")), "murmur.yaml:4:7: bad\nmissing",
			"murmur.yaml:4:7: error[E-MAN-003]: bad\nerror[E-MAN-001]: missing"},
		{"cause not rendered", Wrap("E-RUN-001", hinted, "agent task failed: %s", hinted.Msg),
			"agent task failed: zip entry 'x' not found", "error[E-RUN-001]: agent task failed: zip entry 'x' not found"},
		{"rewritten", &upper{New("E-RUN-001", "bad key").WithHint("rotate the key")}, "bad [REDACTED]",
			"error[E-RUN-001]: bad [REDACTED]\n  hint: rotate the [REDACTED]"},
		{"quoted, not wrapped", fmt.Errorf("x: %v", hinted), "x: zip entry 'x' not found", "x: zip entry 'x' not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.text {
				t.Errorf("Error() = %q, want %q", got, tc.text)
			}
			if got := Render(tc.err); got != tc.want {
				t.Errorf("Render = %q, want %q", got, tc.want)
			}
		})
	}
	if Render(nil) != "" {
		t.Error("Render(nil) is not empty")
	}
}

func TestText(t *testing.T) {
	err := errors.Join(New("E-MAN-003", "a").At(Pos{File: "murmur.yaml", Line: 1}), errors.New("b"))
	if got := Text(err); got != "murmur.yaml:1: a; b" {
		t.Errorf("Text = %q", got)
	}
}

func TestAs(t *testing.T) {
	cause := errors.New("cause")
	err := fmt.Errorf("ctx: %w", Wrap("E-RUN-002", cause, "unlinked"))
	var d *Error
	if !errors.As(err, &d) || d.Code != "E-RUN-002" || !errors.Is(err, cause) {
		t.Fatalf("errors.As/Is through a wrap: %v", err)
	}
}

type kind int

func (k kind) Error() string { return "kind" }

func TestMark(t *testing.T) {
	coded := New("E-IO-003", "registry I/O error").WithHint("retry")
	sentinel := errors.New("step")
	err := fmt.Errorf("pulling: %w", Mark(coded, sentinel, kind(2)))
	var k kind
	var d *Error
	switch {
	case !errors.Is(err, sentinel) || !errors.As(err, &k) || k != 2:
		t.Errorf("marks not found: %v", err)
	case !errors.As(err, &d) || d != coded:
		t.Errorf("the coded error is not found through the mark")
	case err.Error() != "pulling: registry I/O error":
		t.Errorf("text %q", err)
	case Render(err) != "pulling: error[E-IO-003]: registry I/O error\n  hint: retry":
		t.Errorf("render %q", Render(err))
	}
	if Mark(nil, sentinel) != sentinel || Mark(coded) != error(coded) {
		t.Error("Mark without an error or without marks")
	}
	if !errors.Is(Mark(nil, sentinel, kind(1)), kind(1)) {
		t.Error("marks alone")
	}
}
