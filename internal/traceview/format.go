package traceview

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// None is what a value that does not exist is shown as.
const None = "—"

// Thousands is n with a comma between each group of three digits.
func Thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Duration is ms as "500ms" below a second, else seconds to one decimal
// ("1.7s").
func Duration(ms uint64) string {
	if ms < 1000 {
		return strconv.FormatUint(ms, 10) + "ms"
	}
	return fmt.Sprintf("%.1fs", float64(ms)/1000)
}

// OptDuration is Duration of v's whole milliseconds, None when !ok.
func OptDuration(v float64, ok bool) string {
	if !ok {
		return None
	}
	return Duration(Whole(v))
}

// OptRound is v rounded to a whole number, None when !ok.
func OptRound(v float64, ok bool) string {
	if !ok {
		return None
	}
	return fmt.Sprintf("%.0f", v)
}

// Whole is v without its fraction as a count: 0 below zero (or NaN), the
// largest count above it.
func Whole(v float64) uint64 {
	switch {
	case !(v > 0):
		return 0
	case v >= math.MaxUint64:
		return math.MaxUint64
	}
	return uint64(v)
}

// ExitCodes is how many commands exited 0 and how many with each other
// code: "4 ok, 1 failed (exit 1)".
func ExitCodes(codes map[int32]uint32) string {
	var parts []string
	if n := codes[0]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d ok", n))
	}
	var failed []int32
	for c := range codes {
		if c != 0 {
			failed = append(failed, c)
		}
	}
	slices.Sort(failed)
	for _, c := range failed {
		parts = append(parts, fmt.Sprintf("%d failed (exit %d)", codes[c], c))
	}
	return strings.Join(parts, ", ")
}

// ShortSession is a session id cut after "ses_" and 8 characters, with
// "...".
func ShortSession(id string) string {
	const n = len("ses_") + 8
	if r := []rune(id); len(r) > n {
		return string(r[:n]) + "..."
	}
	return id
}

// Prefix is s cut to n characters (without a mark).
func Prefix(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
