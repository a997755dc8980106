package tools

import (
	"strings"
	"unicode"
)

// SplitWords splits a shell tool's command into argv the way Murmur does
// for binaries that are not interpreters (security.md §5.2): quotes group,
// a backslash escapes the next character even inside quotes, whitespace
// separates, and nothing is expanded ($, globs, ~, pipes are literal).
// An unterminated quote is closed at the end and a trailing lone
// backslash dropped; an empty word ("") yields no argument.
func SplitWords(command string) []string {
	var (
		words   []string
		cur     strings.Builder
		quote   rune
		escaped bool
	)
	for _, r := range command {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && unicode.IsSpace(r):
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}
