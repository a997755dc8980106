package github

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// maxChecksumBytes caps a <asset>.sha256 file: one line of sha256sum.
const maxChecksumBytes = 4 << 10

// parseDigest reads GitHub's "digest" field, "sha256:<64 hex>". Another
// algorithm is no sha256 ("" without error); a malformed sha256 is an
// error.
func parseDigest(s string) (string, error) {
	algo, hex, ok := strings.Cut(s, ":")
	if !ok {
		return "", fmt.Errorf("digest %q is not algorithm:hex", s)
	}
	if algo != "sha256" {
		return "", nil
	}
	if !isHex64(hex) {
		return "", fmt.Errorf("digest %q is not sha256:<64 hex digits>", s)
	}
	return strings.ToLower(hex), nil
}

// parseChecksumFile reads <asset>.sha256: one line in sha256sum's form,
// "<64 hex>" alone or followed by blanks and the file's name (a leading
// '*' marks binary mode), which must then be asset.
func parseChecksumFile(data []byte, asset string) (string, error) {
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	if len(bytes.TrimSpace(rest)) != 0 {
		return "", errors.New("the checksum file has more than one line")
	}
	fields := strings.Fields(strings.TrimSuffix(string(line), "\r"))
	if len(fields) == 0 || len(fields) > 2 || !isHex64(fields[0]) {
		return "", errors.New("the checksum file is not '<sha256 hex> [name]'")
	}
	if len(fields) == 2 && strings.TrimPrefix(fields[1], "*") != asset {
		return "", fmt.Errorf("the checksum file names %q, not %q", fields[1], asset)
	}
	return strings.ToLower(fields[0]), nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// decodeMessage is the "message" of a GitHub error body, "" if none.
func decodeMessage(body []byte) string {
	var doc struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &doc) != nil || !printable(doc.Message) {
		return ""
	}
	if r := []rune(doc.Message); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return doc.Message
}
