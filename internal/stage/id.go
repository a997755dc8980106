package stage

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
)

// SessionIDPrefix starts every session id.
const SessionIDPrefix = "ses_"

// NewSessionID mints "ses_" + the 32 lowercase hex digits of a UUIDv7
// (RFC 9562): 48 bits of Unix milliseconds from now, then version and
// variant bits around 74 random bits. Time-ordered ids keep session dirs
// sorted by creation. rnd nil means crypto/rand.
//
// This is written here rather than with github.com/google/uuid: its
// NewV7FromReader reads time.Now itself (through a package variable and a
// process-wide sequence counter in the 12 bits after the version), so the
// id's timestamp could not be Options.Clock's, the id would disagree with
// the staging clock and `mur sessions` (SessionIDTime), and the exact-id test
// could not pin it. Stamping our clock over its output would be writing
// the encoding by hand again, plus a dependency.
func NewSessionID(now time.Time, rnd io.Reader) (string, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	var b [16]byte
	if _, err := io.ReadFull(rnd, b[6:]); err != nil {
		return "", fmt.Errorf("generating a session id: %w", err)
	}
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(now.UnixMilli()))
	copy(b[:6], ms[2:])
	b[6] = 0x70 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	return SessionIDPrefix + hex.EncodeToString(b[:]), nil
}

// ValidSessionID reports whether id has the session id form. Stage refuses
// a caller-supplied id that does not, since the id becomes a directory name.
func ValidSessionID(id string) bool {
	hexPart, ok := strings.CutPrefix(id, SessionIDPrefix)
	if !ok || len(hexPart) != 32 {
		return false
	}
	for _, c := range hexPart {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// SessionIDTime is when a session id was minted: the Unix milliseconds in
// its first 48 bits. ok is false for a string without the session id form.
func SessionIDTime(id string) (t time.Time, ok bool) {
	if !ValidSessionID(id) {
		return time.Time{}, false
	}
	var ms [8]byte
	if _, err := hex.Decode(ms[2:], []byte(id[len(SessionIDPrefix):len(SessionIDPrefix)+12])); err != nil {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(binary.BigEndian.Uint64(ms[:]))), true
}
