package telemetry

import (
	"fmt"
	"net/url"
	"strings"
)

// Headers is OTEL_EXPORTER_OTLP_HEADERS parsed: the pairs sent with every
// export, the values to keep out of every file the session writes (each
// one, decoded and as written), and what was wrong with the pairs left
// out.
type Headers struct {
	Pairs    map[string]string
	Secrets  []string
	Problems []string
}

// ParseHeaders reads a headers variable's value: comma-separated
// key=value pairs, each value percent-decoded (the OpenTelemetry
// environment specification's format). A pair that is not one (no '=',
// an empty key, a key that is not an HTTP field name, a value that does
// not decode or decodes to bytes no header can carry) is left out and
// named in Problems, as the OpenTelemetry SDKs leave it out; the rest
// are kept. Every value, kept or not, is a secret, and so is each word
// after the first of one (the credential after "Bearer"): a malformed
// pair still holds the credential it was meant to carry.
func ParseHeaders(s string) Headers {
	var h Headers
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, raw, ok := strings.Cut(item, "=")
		key, raw = strings.TrimSpace(key), strings.TrimSpace(raw)
		h.Secrets = appendSecret(h.Secrets, raw)
		if !ok {
			h.Problems = append(h.Problems, fmt.Sprintf("a pair without '=' (%d bytes)", len(item)))
			continue
		}
		if !fieldName(key) {
			h.Problems = append(h.Problems, fmt.Sprintf("%q is not an HTTP header name", key))
			continue
		}
		v, err := url.PathUnescape(raw)
		if err != nil {
			h.Problems = append(h.Problems, fmt.Sprintf("the value of %s is not percent-encoded correctly", key))
			continue
		}
		h.Secrets = appendSecret(h.Secrets, v)
		// "Bearer <token>", "Basic <credentials>": the credential after
		// an authorization scheme is a secret on its own.
		if words := strings.Fields(v); len(words) > 1 {
			for _, w := range words[1:] {
				h.Secrets = appendSecret(h.Secrets, w)
			}
		}
		if !fieldValue(v) {
			h.Problems = append(h.Problems, fmt.Sprintf("the value of %s holds a control character", key))
			continue
		}
		if h.Pairs == nil {
			h.Pairs = map[string]string{}
		}
		h.Pairs[key] = v
	}
	return h
}

// MinSecretLen is the shortest header value redacted from the session's
// files: a shorter one protects nothing (it is guessed at once) and,
// redacted, would cut up every number and word it happens to match,
// trace.jsonl's JSON included.
const MinSecretLen = 8

func appendSecret(secrets []string, v string) []string {
	if len(v) < MinSecretLen {
		return secrets
	}
	for _, s := range secrets {
		if s == v {
			return secrets
		}
	}
	return append(secrets, v)
}

// fieldName reports whether s is an HTTP field name (RFC 9110 token).
func fieldName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// fieldValue reports whether s can be sent as a header value: visible
// characters, spaces and tabs, and no CR, LF or NUL that would end the
// header or the request early.
func fieldValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
