package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// split cuts text into pieces at cuts (offsets taken modulo its length,
// so any byte string of cuts is a valid split) and marks flushes.
func split(text string, cuts []byte) (pieces []string, flushes map[int]bool) {
	flushes = map[int]bool{}
	at := 0
	for i, c := range cuts {
		if at >= len(text) {
			break
		}
		n := int(c>>1)%(len(text)-at) + 1
		pieces = append(pieces, text[at:at+n])
		at += n
		if c&1 == 1 {
			flushes[i] = true
		}
	}
	if at < len(text) {
		pieces = append(pieces, text[at:])
	}
	return pieces, flushes
}

// check is the stream's contract for one input: without a flush, the
// pieces out equal the whole-string redaction; with flushes, they never
// hold a secret. Secrets and text are lowercase, so no secret can be
// made of the marker's letters.
func check(t *testing.T, secrets []string, text string, cuts []byte) {
	t.Helper()
	r := New(secrets...)
	pieces, flushes := split(text, cuts)
	got := strings.Join(stream(r, pieces, nil), "")
	if want := r.String(text); got != want {
		t.Fatalf("secrets %q, pieces %q:\nstreamed %q\nwhole    %q", secrets, pieces, got, want)
	}
	got = strings.Join(stream(r, pieces, flushes), "")
	for _, s := range secrets {
		if s != "" && strings.Contains(got, s) {
			t.Fatalf("secrets %q, pieces %q, flushes %v: %q holds %q", secrets, pieces, flushes, got, s)
		}
	}
}

// FuzzStream: any text, any secrets, any split and flushes.
func FuzzStream(f *testing.F) {
	f.Add("abab", "ba", "xxababab abba", []byte{3, 2, 5, 1})
	f.Add(key, "", "say "+key+" now", []byte{9, 12, 1})
	f.Add("aab", "ab", "aaab aab", []byte{1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, s1, s2, text string, cuts []byte) {
		lower := func(s string) string {
			return strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r == ' ' {
					return r
				}
				return -1
			}, s)
		}
		s1, s2, text = strings.TrimSpace(lower(s1)), strings.TrimSpace(lower(s2)), lower(text)
		check(t, []string{s1, s2}, text, cuts)
	})
}

// TestStreamProperty runs the fuzz contract over many random cases with a
// small alphabet, where secrets overlap themselves and each other.
func TestStreamProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		return string(b)
	}
	for range 20000 {
		secrets := []string{word(1 + rng.IntN(5))}
		if rng.IntN(2) == 0 {
			secrets = append(secrets, word(1+rng.IntN(5)))
		}
		var text strings.Builder
		for range rng.IntN(6) {
			text.WriteString(word(rng.IntN(4)))
			text.WriteString(secrets[rng.IntN(len(secrets))])
		}
		text.WriteString(word(rng.IntN(4)))
		cuts := make([]byte, rng.IntN(12))
		for i := range cuts {
			cuts[i] = byte(rng.IntN(256))
		}
		check(t, secrets, text.String(), cuts)
	}
}

func BenchmarkStream(b *testing.B) {
	chunk := "a token of model text, as a provider streams it "
	for _, c := range []struct {
		name string
		r    *Redactor
	}{{"no-secret", New()}, {"one-secret", New(key)}, {"three-secrets", New(key, "0f3c1a9e2b7d4c6a8e0f1b2c3d4e5f6a", "a2a-token-xyz")}} {
		b.Run(c.name, func(b *testing.B) {
			s := c.r.Stream()
			b.ReportAllocs()
			b.SetBytes(int64(len(chunk)))
			for b.Loop() {
				if s.Write(chunk) == "" {
					b.Fatal("held back plain text")
				}
			}
		})
	}
}
