package registry

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
)

// Digest is Verify handing back the digest it took: the bytes' own,
// whatever spelling of it was recorded, and nothing when they do not
// match the record.
func TestDigestIsTheVerifiedHashOfTheBytes(t *testing.T) {
	data := []byte("a package")
	sum := artifact.SHA256Hex(data)
	tests := []struct {
		name, recorded string
		ok             bool
	}{
		{"recorded as taken", sum, true},
		{"recorded in upper case", strings.ToUpper(sum), true},
		{"recorded for other bytes", artifact.SHA256Hex([]byte("another")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Resolved{Name: "p", Version: "1.0.0", Data: data, SHA256: tt.recorded}
			got, err := r.Digest()
			if tt.ok && (err != nil || got != sum) {
				t.Errorf("Digest = %q, %v; want %q", got, err, sum)
			}
			if !tt.ok && (got != "" || !errors.Is(err, ErrIntegrity)) {
				t.Errorf("Digest = %q, %v; want an integrity error", got, err)
			}
			if (r.Verify() == nil) != tt.ok {
				t.Errorf("Verify and Digest disagree")
			}
		})
	}
}
