// Package redact keeps a session's secrets (the inference api_key, the
// A2A server's bearer token, the tool bridge's token while it lives) out
// of everything the runtime sends on from a guest: whole values (a
// driver's or tool's answer, a status, an artifact, a trace line, a log
// record, an error) and streams cut into pieces (text chunks, a guest's
// stdout), where a secret may arrive split across any number of pieces.
//
// One Redactor per session holds the secrets; every path out goes through
// it. Secrets can be added and removed while the session runs (a bridge
// token lives for one attempt); each call reads the set as it is then.
package redact

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Marker is what a secret reads as once redacted.
const Marker = "[REDACTED]"

// Redactor holds a session's secrets. A nil *Redactor holds none and
// passes everything through, so a session built without one (a test's)
// needs no special case. Safe for concurrent use.
type Redactor struct {
	mu     sync.Mutex
	counts map[string]int
	m      atomic.Pointer[matcher]
}

// New returns a Redactor holding secrets; empty ones are ignored. The
// zero Redactor is an empty one too.
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add puts secret in the set until remove is called (an empty secret is
// not one: remove then does nothing). A secret added twice stays until
// both are removed.
func (r *Redactor) Add(secret string) (remove func()) {
	if r == nil || secret == "" {
		return func() {}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	r.counts[secret]++
	r.rebuildLocked()
	return sync.OnceFunc(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.counts[secret]--; r.counts[secret] <= 0 {
			delete(r.counts, secret)
		}
		r.rebuildLocked()
	})
}

func (r *Redactor) rebuildLocked() {
	secrets := make([]string, 0, len(r.counts))
	for s := range r.counts {
		secrets = append(secrets, s)
	}
	r.m.Store(newMatcher(secrets))
}

// load is the current set's matcher, nil when there is no secret.
func (r *Redactor) load() *matcher {
	if r == nil {
		return nil
	}
	return r.m.Load()
}

// Active reports whether the set holds a secret now.
func (r *Redactor) Active() bool { return r.load() != nil }

// String is s with every secret replaced by Marker.
func (r *Redactor) String(s string) string {
	m := r.load()
	if m == nil {
		return s
	}
	return m.redact(s)
}

// Bytes is b with every secret replaced by Marker: b itself when it holds
// none.
func (r *Redactor) Bytes(b []byte) []byte {
	m := r.load()
	if m == nil {
		return b
	}
	if start, _ := m.next(string(b), 0); start < 0 {
		return b
	}
	return []byte(m.redact(string(b)))
}

// matcher is one immutable set of patterns: each secret and, where it
// differs, the secret as it reads inside a JSON string (the trace and
// the A2A frames are JSON). No pattern contains another (the longer one
// is dropped: redacting the shorter already breaks it), so two
// occurrences never start at the same byte, and the leftmost one is the
// only choice, whole or streamed.
type matcher struct {
	patterns []string
	maxLen   int
	// first marks the bytes a pattern starts with.
	first [256]bool
}

func newMatcher(secrets []string) *matcher {
	var ps []string
	for _, s := range secrets {
		ps = append(ps, s)
		if j := jsonForm(s); j != s {
			ps = append(ps, j)
		}
	}
	slices.Sort(ps)
	ps = slices.Compact(ps)
	m := &matcher{}
	for _, p := range ps {
		if slices.ContainsFunc(ps, func(q string) bool { return q != p && strings.Contains(p, q) }) {
			continue
		}
		m.patterns = append(m.patterns, p)
		m.maxLen = max(m.maxLen, len(p))
		m.first[p[0]] = true
	}
	if len(m.patterns) == 0 {
		return nil
	}
	return m
}

// jsonForm is s as encoding/json writes it inside a string, without the
// quotes (HTML characters left alone, as the trace writes them).
func jsonForm(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return s
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// next is the leftmost occurrence of a pattern in s at or after from:
// its start and end, or -1, -1.
func (m *matcher) next(s string, from int) (start, end int) {
	start, end = -1, -1
	for _, p := range m.patterns {
		i := strings.Index(s[from:], p)
		if i >= 0 && (start < 0 || from+i < start) {
			start, end = from+i, from+i+len(p)
		}
	}
	return start, end
}

// redact replaces the occurrences of patterns in s, leftmost first.
func (m *matcher) redact(s string) string {
	start, end := m.next(s, 0)
	if start < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for start >= 0 {
		b.WriteString(s[pos:start])
		b.WriteString(Marker)
		pos = end
		start, end = m.next(s, pos)
	}
	b.WriteString(s[pos:])
	return b.String()
}

// heldFrom is where the longest suffix of s[from:] that is a proper
// prefix of a pattern begins (len(s) when none): the bytes a stream must
// keep back, since the next piece may complete a secret with them.
func (m *matcher) heldFrom(s string, from int) int {
	for i := max(from, len(s)-m.maxLen+1); i < len(s); i++ {
		if !m.first[s[i]] {
			continue
		}
		tail := s[i:]
		for _, p := range m.patterns {
			if p[0] == tail[0] && len(tail) < len(p) && p[:len(tail)] == tail {
				return i
			}
		}
	}
	return len(s)
}
