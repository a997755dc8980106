package search

import "strings"

// Match is the first limit entries whose name, description or a tag
// contains query, compared ASCII case-insensitively as Murmur compares
// them, in index order.
func Match(entries []Entry, query string, limit int) []Entry {
	q := asciiLower(query)
	var out []Entry
	for _, e := range entries {
		if len(out) >= limit {
			break
		}
		if matches(e, q) {
			out = append(out, e)
		}
	}
	return out
}

func matches(e Entry, q string) bool {
	if strings.Contains(asciiLower(e.Name), q) {
		return true
	}
	if e.Description != nil && strings.Contains(asciiLower(*e.Description), q) {
		return true
	}
	for _, t := range e.Tags {
		if strings.Contains(asciiLower(t), q) {
			return true
		}
	}
	return false
}

// asciiLower lowers A-Z only, as Rust's to_ascii_lowercase does.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}
