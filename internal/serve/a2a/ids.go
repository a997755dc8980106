package a2a

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// Id prefixes (session.md §9).
const (
	taskPrefix    = "tsk_"
	contextPrefix = "ctx_"
)

// idKey is the UUIDv7 of a tsk_/ctx_ id: what the task table keeps of an
// id, 16 bytes with no pointer, instead of its 36-byte string.
type idKey [16]byte

// newKey mints a UUIDv7. The uuid package keeps them increasing within the
// process (a counter under its millisecond), which the task table's binary
// search relies on and checks.
func newKey(prefix string) (idKey, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return idKey{}, fmt.Errorf("minting a %sid: %w", prefix, err)
	}
	return idKey(u), nil
}

// newID is prefix + a UUIDv7 in simple form.
func newID(prefix string) (string, error) {
	k, err := newKey(prefix)
	if err != nil {
		return "", err
	}
	return k.id(prefix), nil
}

func (k idKey) id(prefix string) string { return prefix + hex.EncodeToString(k[:]) }

// parseKey is the key of an id minted by newKey with prefix: ok only for
// exactly that form (32 lowercase hex digits), so a key prints back as
// the very id it was parsed from.
func parseKey(prefix, id string) (idKey, bool) {
	var k idKey
	h, ok := strings.CutPrefix(id, prefix)
	if !ok || len(h) != 2*len(k) {
		return k, false
	}
	for i := range len(h) {
		if c := h[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return k, false
		}
	}
	_, err := hex.Decode(k[:], []byte(h))
	return k, err == nil
}
