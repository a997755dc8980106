package wasip2

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

const testSecret = "sk-mock-0123456789-KEY-abcdef"

// refScrub is the redaction rule stated plainly: mark every byte of every
// window of n bytes that occurs in the secret, then write each maximal
// run of marked bytes as one Redacted.
func refScrub(secret string, b []byte) []byte {
	n := min(FragmentLen, len(secret))
	marked := make([]bool, len(b))
	for s := 0; s+n <= len(b); s++ {
		if strings.Contains(secret, string(b[s:s+n])) {
			for j := s; j < s+n; j++ {
				marked[j] = true
			}
		}
	}
	var out []byte
	for i, c := range b {
		switch {
		case !marked[i]:
			out = append(out, c)
		case i == 0 || !marked[i-1]:
			out = append(out, Redacted...)
		}
	}
	return out
}

// leaks is the first run of FragmentLen bytes of secret in out, or "".
func leaks(secret string, out []byte) string {
	n := min(FragmentLen, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		if bytes.Contains(out, []byte(secret[i:i+n])) {
			return secret[i : i+n]
		}
	}
	return ""
}

// readSplit reads body through redactBody in two reads split at cut.
func readSplit(t *testing.T, c *Credential, body []byte, cut int) []byte {
	t.Helper()
	r := io.MultiReader(bytes.NewReader(body[:cut]), bytes.NewReader(body[cut:]))
	got, err := io.ReadAll(c.redactBody(io.NopCloser(r)))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestRedactBody(t *testing.T) {
	c := &Credential{Secret: testSecret}
	k := testSecret
	for _, tc := range []struct {
		name, body, want string
	}{
		{"whole key", "auth=Bearer " + k + ";", "auth=Bearer [REDACTED];"},
		{"twice, adjacent", k + k, "[REDACTED]"},
		{"twice, apart", k + " " + k, "[REDACTED] [REDACTED]"},
		{"prefix cut at the end", "x" + k[:20], "x[REDACTED]"},
		{"suffix at the start", k[9:] + "!", "[REDACTED]!"},
		{"middle fragment", "<" + k[5:13] + ">", "<[REDACTED]>"},
		{"seven bytes pass", "<" + k[5:12] + ">", "<" + k[5:12] + ">"},
		{"two halves, one line", k[:14] + "," + k[14:], "[REDACTED],[REDACTED]"},
		{"nothing", "hello, world", "hello, world"},
		{"empty", "", ""},
		{"large", strings.Repeat("a", 100<<10) + k + strings.Repeat("b", 100<<10),
			strings.Repeat("a", 100<<10) + Redacted + strings.Repeat("b", 100<<10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			if got := refScrub(k, body); string(got) != tc.want {
				t.Fatalf("reference %q, want %q", got, tc.want)
			}
			for _, r := range []io.Reader{bytes.NewReader(body), iotest.OneByteReader(bytes.NewReader(body)),
				iotest.HalfReader(bytes.NewReader(body)), iotest.DataErrReader(bytes.NewReader(body))} {
				got, err := io.ReadAll(c.redactBody(io.NopCloser(r)))
				if err != nil || string(got) != tc.want {
					t.Fatalf("got %.200q, %v; want %.200q", got, err, tc.want)
				}
			}
			// Every split point: the key cut across two reads at every offset.
			if len(body) < 1000 {
				for cut := 0; cut <= len(body); cut++ {
					if got := readSplit(t, c, body, cut); string(got) != tc.want {
						t.Fatalf("cut at %d: got %q, want %q", cut, got, tc.want)
					}
				}
			}
		})
	}
}

// TestRedactShortSecret: a secret shorter than FragmentLen is matched whole.
func TestRedactShortSecret(t *testing.T) {
	c := &Credential{Secret: "abc12"}
	got, _ := io.ReadAll(c.redactBody(io.NopCloser(strings.NewReader("abc1 abc12 bc12"))))
	if string(got) != "abc1 [REDACTED] bc12" {
		t.Fatalf("got %q", got)
	}
}

func TestRedactHeaderAndErr(t *testing.T) {
	c := &Credential{Secret: testSecret}
	h := map[string][]string{"X-Echo": {"Bearer " + testSecret}, "X-Half": {testSecret[:12], testSecret[12:]},
		"X-" + testSecret: {"v"}, "X-Plain": {"ok"}}
	c.redactHeader(h)
	if h["X-Echo"][0] != "Bearer [REDACTED]" || h["X-Half"][0] != Redacted || h["X-Half"][1] != Redacted ||
		h["X-Plain"][0] != "ok" || h["X-"+Redacted] == nil {
		t.Fatalf("headers %q", h)
	}
	base := errors.New("bad line " + testSecret)
	err := c.redactErr(fmt.Errorf("wrapped: %w", base))
	if strings.Contains(err.Error(), testSecret[:8]) || !errors.Is(err, base) {
		t.Fatalf("redactErr: %v", err)
	}
}

// FuzzRedactBody holds the streaming scrubber to the reference rule for
// any body and any way of splitting it into reads, and checks that no
// fragment of the key survives.
func FuzzRedactBody(f *testing.F) {
	f.Add([]byte("a "+testSecret+" b"), uint8(3))
	f.Add([]byte(testSecret[:10]+testSecret[3:]), uint8(1))
	f.Add([]byte(testSecret[20:]+testSecret+testSecret[:9]), uint8(7))
	c := &Credential{Secret: testSecret}
	f.Fuzz(func(t *testing.T, body []byte, step uint8) {
		want := refScrub(testSecret, body)
		var r io.Reader = bytes.NewReader(body)
		if step > 0 {
			r = &chunked{b: body, step: int(step)}
		}
		got, err := io.ReadAll(c.redactBody(io.NopCloser(r)))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("step %d: got %q, %v; want %q", step, got, err, want)
		}
		// The key has no bracket, so no window across a Redacted can match.
		if frag := leaks(testSecret, got); frag != "" {
			t.Fatalf("fragment %q survived in %q", frag, got)
		}
	})
}

// chunked returns b in reads of step bytes, then step+1, and so on.
type chunked struct {
	b    []byte
	step int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.step)], c.b)
	c.b, c.step = c.b[n:], c.step+1
	return n, nil
}

// BenchmarkRedactBody: the scrubber's throughput on text with no key in it,
// which is what a provider's answers are.
func BenchmarkRedactBody(b *testing.B) {
	c := &Credential{Secret: testSecret}
	body := bytes.Repeat([]byte(`data: {"choices":[{"delta":{"content":"the quick brown fox "}}]}`+"\n\n"), 16<<10)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		r := c.redactBody(io.NopCloser(bytes.NewReader(body)))
		if _, err := io.Copy(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
