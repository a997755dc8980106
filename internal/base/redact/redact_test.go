package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

const key = "sk-live-0123456789abcdef"

func TestString(t *testing.T) {
	for _, c := range []struct {
		name    string
		secrets []string
		in, out string
	}{
		{"none held", nil, "a " + key, "a " + key},
		{"empty secret ignored", []string{""}, "abc", "abc"},
		{"once", []string{key}, "the key is " + key + ".", "the key is [REDACTED]."},
		{"twice", []string{key}, key + key, "[REDACTED][REDACTED]"},
		{"self-overlapping", []string{"abab"}, "ababab", "[REDACTED]ab"},
		{"two secrets, leftmost first", []string{"abc", "bcd"}, "xabcd", "x[REDACTED]d"},
		{"a secret inside another", []string{"bc", "abcd"}, "abcd", "a[REDACTED]d"},
		{"JSON form", []string{`k"ey\1`}, `{"t":"k\"ey\\1"} k"ey\1`, `{"t":"[REDACTED]"} [REDACTED]`},
		{"no occurrence", []string{key}, "sk-live-0123", "sk-live-0123"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New(c.secrets...)
			if got := r.String(c.in); got != c.out {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.out)
			}
			if got := string(r.Bytes([]byte(c.in))); got != c.out {
				t.Errorf("Bytes(%q) = %q, want %q", c.in, got, c.out)
			}
		})
	}
}

func TestNilRedactor(t *testing.T) {
	var r *Redactor
	r.Add(key)()
	if r.String(key) != key || string(r.Bytes([]byte(key))) != key || r.Active() {
		t.Error("a nil Redactor changed its input")
	}
	s := r.Stream()
	if s.Write("a") != "a" || s.Flush() != "" {
		t.Error("a nil Redactor's stream changed its input")
	}
}

func TestAddRemove(t *testing.T) {
	r := New()
	if r.Active() {
		t.Fatal("an empty set is active")
	}
	rm1, rm2 := r.Add("tok"), r.Add("tok")
	rm1()
	rm1() // twice is once
	if r.String("a tok") != "a [REDACTED]" {
		t.Error("removed while still added once")
	}
	rm2()
	if r.String("a tok") != "a tok" || r.Active() {
		t.Error("still redacted after both removes")
	}
}

// stream feeds pieces through a fresh stream (with a Flush after the
// pieces whose index is in flushes) and returns the pieces out.
func stream(r *Redactor, pieces []string, flushes map[int]bool) []string {
	s := r.Stream()
	var out []string
	for i, p := range pieces {
		out = append(out, s.Write(p))
		if flushes[i] {
			out = append(out, s.Flush())
		}
	}
	return append(out, s.Flush())
}

func TestStreamSplitsAtEveryOffset(t *testing.T) {
	r := New(key)
	text := "before " + key + " after"
	for i := 1; i < len(text); i++ {
		for j := i; j < len(text); j++ {
			pieces := []string{text[:i], text[i:j], text[j:]}
			out := stream(r, pieces, nil)
			if got := strings.Join(out, ""); got != "before [REDACTED] after" {
				t.Fatalf("split at %d,%d: %q", i, j, got)
			}
		}
	}
	// One byte a piece: nothing of the key goes out, not even a prefix
	// with the rest following.
	var bytesIn []string
	for i := range len(text) {
		bytesIn = append(bytesIn, text[i:i+1])
	}
	if got := strings.Join(stream(r, bytesIn, nil), ""); got != "before [REDACTED] after" {
		t.Errorf("byte by byte: %q", got)
	}
}

// TestStreamHoldsOnlyAPrefix: text that cannot begin the secret goes out
// at once; a prefix is kept only while it matches.
func TestStreamHoldsOnlyAPrefix(t *testing.T) {
	s := New(key).Stream()
	for _, c := range []struct{ in, out string }{
		{"hello ", "hello "},
		{"world sk-", "world "},
		{"live", ""},
		{"-x", "sk-live-x"},
		{"ok sk-live-01", "ok "},
	} {
		if got := s.Write(c.in); got != c.out {
			t.Errorf("Write(%q) = %q, want %q", c.in, got, c.out)
		}
	}
	if got := s.Flush(); got != "sk-live-01" {
		t.Errorf("Flush = %q", got)
	}
}

// TestStreamAfterFlush: a stream flushed in the middle of a secret still
// never lets the whole secret out: the rest becomes the marker.
func TestStreamAfterFlush(t *testing.T) {
	r := New(key)
	out := stream(r, []string{"a " + key[:10], key[10:20], key[20:] + " b"}, map[int]bool{0: true, 1: true})
	got := strings.Join(out, "")
	if strings.Contains(got, key) || got != "a "+key[:20]+Marker+" b" {
		t.Errorf("got %q", got)
	}
}

func TestStreamKeepsRunes(t *testing.T) {
	r := New("é-secret")
	s := r.Stream()
	// "é" is two bytes; the first piece ends between them.
	in := "café-s"
	out := s.Write(in[:4]) // "caf" + first byte of é
	if out != "caf" {
		t.Fatalf("Write = %q, want the rune kept whole", out)
	}
	out += s.Write(in[4:]) + s.Write("ecret!") + s.Flush()
	if out != "caf[REDACTED]!" {
		t.Errorf("got %q", out)
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := New(key).Writer(&b)
	for _, p := range []string{"line " + key[:5], key[5:] + "\n", "tail sk"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if b.String() != "line [REDACTED]\ntail sk" {
		t.Errorf("got %q", b.String())
	}
}

func TestError(t *testing.T) {
	r := New(key)
	base := fmt.Errorf("provider said %s: %w", key, fs.ErrPermission)
	err := r.Error(base)
	if strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), Marker) {
		t.Errorf("Error() = %q", err)
	}
	if !errors.Is(err, fs.ErrPermission) || !errors.Is(err, base) {
		t.Error("errors.Is lost the wrapped errors")
	}
	plain := errors.New("nothing secret")
	if r.Error(plain) != plain || r.Error(nil) != nil {
		t.Error("an error without the secret was wrapped")
	}
	// The CLI renders a coded error with its code and hint: a secret in
	// either part, or in a wrapper's text, stays out of the rendering.
	for _, coded := range []error{
		diag.New("E-RUN-001", "driver failed").WithHint("check the key " + key),
		fmt.Errorf("calling %s: %w", key, diag.New("E-RUN-001", "driver failed")),
		diag.New("E-RUN-001", "driver said %s", key),
	} {
		red := r.Error(coded)
		if got := diag.Render(red); strings.Contains(got, key) || !strings.Contains(got, "error[E-RUN-001]: ") {
			t.Errorf("Render = %q", got)
		}
		var d *diag.Error
		if !errors.As(red, &d) {
			t.Error("errors.As lost the coded error")
		}
	}
}

func TestHandler(t *testing.T) {
	var b bytes.Buffer
	r := New(key)
	log := slog.New(r.Handler(slog.NewTextHandler(&b, nil))).With("pre", "p "+key)
	log.Info("msg "+key, "s", key, "err", errors.New("e "+key), "any", []string{key},
		slog.Group("g", "in", key), "n", 3)
	if strings.Contains(b.String(), key) {
		t.Errorf("the key is in the log: %s", b.String())
	}
	if strings.Count(b.String(), Marker) != 6 || !strings.Contains(b.String(), "n=3") {
		t.Errorf("log line: %s", b.String())
	}
	if !log.Enabled(context.Background(), slog.LevelInfo) || log.Enabled(context.Background(), slog.LevelDebug) {
		t.Error("Enabled is not the wrapped handler's")
	}
}
