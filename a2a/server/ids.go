package server

import (
	"encoding/hex"
	"fmt"

	"github.com/google/uuid"
)

// newID is prefix + a UUIDv7 in simple form (session.md §9: tsk_/ctx_).
func newID(prefix string) (string, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("minting a %sid: %w", prefix, err)
	}
	return prefix + hex.EncodeToString(u[:]), nil
}
