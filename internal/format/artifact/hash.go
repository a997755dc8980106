package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// SHA256Hex is the lower-case hex SHA-256 of the exact package bytes. It is
// the identity recorded in .sha256 sidecars, the x-murmur-sha256 header and
// murmur.lock, for every packaging type.
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// SameDigest compares two hex digests, ignoring case and surrounding space
// (sidecars may end in a newline).
func SameDigest(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}
