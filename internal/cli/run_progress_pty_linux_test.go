package cli

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
)

// On a terminal (a real pseudo-terminal, stdout and stderr both on it)
// mur run shows its progress by default, with a status line that fits
// the width and is erased before each line, so the screen reads: mur's
// lines, the progress, then Murmur's status and the answer. -q and
// --json turn it off; TERM=dumb gets the plain lines and no escape
// sequence.
func TestRunProgressOnATerminal(t *testing.T) {
	dir := progressProject(t)
	lines := strings.TrimSuffix(strings.TrimPrefix(progressLines.String(), "^"), "$")
	const head = `^session: ses_\w+\nmurmur: url localhost:\d+\n`
	for _, tc := range []struct {
		name, term string
		args       []string
		screen     string
		redraws    bool
	}{
		{"by default", "xterm", nil, head + lines + `status:  ok\nthe answer\n$`, true},
		{"-q", "xterm", []string{"-q"}, head + `status:  ok\nthe answer\n$`, false},
		{"TERM=dumb", "dumb", nil, head + lines + `status:  ok\nthe answer\n$`, false},
		{"--json", "xterm", []string{"--json"}, `^\{"name":"agent","pid":\d+,"session_id":"ses_\w+","url":"localhost:\d+",[^\n]*\}\n$`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TERM", tc.term)
			out, code := runOnTerminal(t, dir, 60, append([]string{"run", "--task", "hi"}, tc.args...)...)
			s := screen(out)
			if code != exitOK || !regexp.MustCompile(tc.screen).MatchString(s) {
				t.Fatalf("exit %d; the screen reads\n%s\nfrom %q", code, s, out)
			}
			if got := strings.Contains(out, "\x1b"); got != tc.redraws {
				t.Errorf("escape sequences written: %v, want %v: %q", got, tc.redraws, out)
			}
			// A status line is erased by the next piece without a newline
			// of its own.
			for _, piece := range strings.Split(out, "\r\x1b[K")[1:] {
				if n := utf8.RuneCountInString(piece); !strings.Contains(piece, "\n") && n >= 60 {
					t.Errorf("a status line of %d characters on a terminal of 60: %q", n, piece)
				}
			}
		})
	}
}

// runOnTerminal runs mur in dir, in process, with stdout and stderr on a
// new pseudo-terminal of the given width, and returns what it showed.
func runOnTerminal(t *testing.T, dir string, cols uint16, args ...string) (string, int) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: cols}); err != nil {
		t.Fatal(err)
	}
	read := make(chan string, 1)
	go func() {
		// Read until the terminal is hung up (EIO once tty is closed).
		b, _ := io.ReadAll(ptmx)
		read <- strings.ReplaceAll(string(b), "\r\n", "\n")
	}()
	t.Chdir(dir)
	t.Setenv("HOME", dir+"/.home")
	code := Run(context.Background(), args, tty, tty)
	tty.Close()
	return <-read, code
}

// screen is what a terminal shows for out: "\r\x1b[K" clears the line
// the cursor is on, a newline ends it.
func screen(out string) string {
	var done []string
	var cur strings.Builder
	for len(out) > 0 {
		switch {
		case strings.HasPrefix(out, "\r\x1b[K"):
			cur.Reset()
			out = out[4:]
			continue
		case out[0] == '\n':
			done = append(done, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(out[0])
		}
		out = out[1:]
	}
	return strings.Join(append(done, cur.String()), "\n")
}

// A model's answer is shown on a terminal, never obeyed: its escape
// sequences (clear the screen, set the title, move the cursor back over
// what mur printed) reach the screen as U+FFFD and its carriage return
// not at all, with -q and without;
// piped, stdout carries the answer's bytes as they are.
func TestRunAnswerOnATerminalIsShownNotObeyed(t *testing.T) {
	const hostile = `\u001b[2J\u001b]0;pwned\u0007\rspoofed\u009b31m done`
	dir := agentProject(t, strings.Replace(agentYAML, `"text": "the answer"`, `"text": "`+hostile+`"`, 1))
	for _, args := range [][]string{nil, {"-q"}} {
		out, code := runOnTerminal(t, dir, 80, append([]string{"run", "--task", "hi"}, args...)...)
		_, answer, _ := strings.Cut(out, "status:  ok\n")
		if code != exitOK || answer != "\uFFFD[2J\uFFFD]0;pwned\uFFFDspoofed\uFFFD31m done\n" {
			t.Errorf("%v: exit %d, the terminal got %q", args, code, out)
		}
	}
	stdout, _, code := murIn(t, dir, "run", "-q", "--task", "hi")
	if code != exitOK || stdout != "\x1b[2J\x1b]0;pwned\x07\rspoofed\u009b31m done\n" {
		t.Errorf("piped: exit %d, stdout %q", code, stdout)
	}
}
