package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mur-go/mur/internal/base/termtext"
)

// The widths, in characters, progress cuts untrusted text to: a tool's
// input, an error, a task's text, a model answer that did not stream.
const (
	briefInput  = 72
	briefError  = 80
	briefAnswer = 100
)

// brief is s as one short line for the progress: white space collapsed,
// control and bidi characters shown as U+FFFD (s comes from the model,
// the task or a tool, and must not steer the terminal), cut to max
// characters with an ellipsis.
func brief(s string, max int) string {
	out := make([]rune, 0, max+1)
	space := false
	for _, r := range s { // an invalid byte comes as U+FFFD
		if unicode.IsSpace(r) {
			space = len(out) > 0
			continue
		}
		if space {
			out, space = append(out, ' '), false
		}
		if out = append(out, visible(r)); len(out) > max {
			break
		}
	}
	if len(out) > max {
		out = append(out[:max-1], '…')
	}
	return string(out)
}

// visible is r, or U+FFFD for a rune that would act on the terminal or
// change what is read rather than show (termtext.Unsafe).
func visible(r rune) rune {
	if termtext.Unsafe(r, true) {
		return '\uFFFD'
	}
	return r
}

// streamText is a streamed piece as the terminal may show it: newlines
// and tabs kept, carriage returns dropped (they would let the text
// overwrite the line's start), every other control shown as U+FFFD.
// The piece is valid UTF-8 (progress holds back a split rune).
func streamText(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\t':
			return r
		case '\r':
			return -1
		}
		return visible(r)
	}, s)
}

// splitRune cuts s into what is whole UTF-8 and an incomplete rune at
// its end (at most 3 bytes), which the next piece completes.
func splitRune(s string) (whole, tail string) {
	for i := 1; i <= 3 && i <= len(s); i++ {
		c := s[len(s)-i]
		if c < utf8.RuneSelf {
			return s, ""
		}
		if utf8.RuneStart(c) {
			if utf8.FullRuneInString(s[len(s)-i:]) {
				return s, ""
			}
			return s[:len(s)-i], s[len(s)-i:]
		}
	}
	return s, ""
}

// answerText is the text blocks of a driver's response (the
// {"content":[{"type":"text","text":…}]} a driver answers), joined by a
// space: what a model that did not stream said in its turn. A response
// that is not that shape has none.
func answerText(raw string) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal([]byte(raw), &r) != nil {
		return ""
	}
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, " ")
}

// span is a duration as progress shows it: milliseconds under a second,
// tenths of seconds under a minute, then minutes and seconds.
func span(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// tokens is a model call's or a task's token count; an input count
// that is mur's estimate rather than the provider's is marked "~".
func tokens(in, out uint64, estimated bool) string {
	mark := ""
	if estimated {
		mark = "~"
	}
	return fmt.Sprintf("%s%d in, %d out tokens", mark, in, out)
}
