package traceview

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
)

// ParseSince is a --since value, <N>m, <N>h or <N>d, in milliseconds
// (the largest count when it is more than that holds).
func ParseSince(s string) (uint64, error) {
	units := map[byte]uint64{'m': 60_000, 'h': 3_600_000, 'd': 86_400_000}
	bad := diag.New(CodeSelect, "unrecognised --since format '%s' — expected <N>m, <N>h, or <N>d", clean(s))
	if s == "" {
		return 0, bad
	}
	unit, ok := units[s[len(s)-1]]
	if !ok {
		return 0, bad
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(s[:len(s)-1], "+"), 10, 64)
	if err != nil {
		return 0, bad
	}
	if n > math.MaxUint64/unit {
		return math.MaxUint64, nil
	}
	return n * unit, nil
}

// SessionTime is when session name (a directory, ses_…) was created, in
// Unix milliseconds: the first 12 hex digits of its UUIDv7.
func SessionTime(name string) (uint64, bool) {
	hex, ok := strings.CutPrefix(name, "ses_")
	if !ok || len(hex) < 12 {
		return 0, false
	}
	ms, err := strconv.ParseUint(hex[:12], 16, 64)
	return ms, err == nil
}

// Filter narrows a report to the workdir's latest sessions.
type Filter struct {
	// Since, when HasSince, keeps sessions created in the last Since
	// milliseconds before Now; SinceText is the flag as written.
	Since     uint64
	HasSince  bool
	SinceText string
	Now       time.Time
	// Last, when not 0, keeps the Last newest.
	Last int
}

// Recent is the traces of workdir's sessions f keeps, oldest first.
func Recent(workdir string, f Filter) ([]Ref, error) {
	if fi, err := statDir(workdir); err != nil || !fi {
		return nil, diag.New(CodeNotFound, "workdir not found: %s", workdir)
	}
	names, err := Sessions(workdir)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, noSessions(workdir)
	}
	if f.HasSince {
		now := uint64(max(f.Now.UnixMilli(), 0))
		cutoff := now - min(f.Since, now)
		var kept []Session
		for _, n := range names {
			if ms, ok := SessionTime(n.ID); ok && ms >= cutoff {
				kept = append(kept, n)
			}
		}
		if len(kept) == 0 {
			return nil, diag.New(CodeSelect, "no sessions matched --since %s in workdir at %s", clean(f.SinceText), workdir)
		}
		names = kept
	}
	if f.Last > 0 && f.Last < len(names) {
		names = names[len(names)-f.Last:]
	}
	refs := make([]Ref, len(names))
	for i, n := range names {
		refs[i] = sessionRef(workdir, n)
	}
	return refs, nil
}
