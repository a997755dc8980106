package artifactname

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, in, reason string
	}{
		{"plain", "my-tool", ""},
		{"double hyphen", "a--b", ""},
		{"digits only", "123", ""},
		{"murmur prefix", "murmur-x", ""},
		{"at the limit", strings.Repeat("a", 100), ""},
		{"empty", "", "must not be empty"},
		{"over the limit", strings.Repeat("a", 101), "must be at most 100 characters"},
		{"upper case", "My-tool", "may contain only lowercase letters, digits and '-' (found 'M')"},
		{"underscore", "my_tool", "may contain only lowercase letters, digits and '-' (found '_')"},
		{"leading hyphen", "-tool", "must not start or end with '-'"},
		{"trailing hyphen", "tool-", "must not start or end with '-'"},
		// Fewer than 100 characters but more than 100 bytes: counted in
		// bytes this read as too long; the spec counts characters.
		{"multibyte under the limit", strings.Repeat("é", 51), "may contain only lowercase letters, digits and '-' (found 'é')"},
		{"multibyte at the limit", strings.Repeat("a", 99) + "é", "may contain only lowercase letters, digits and '-' (found 'é')"},
		{"multibyte over the limit", strings.Repeat("é", 101), "must be at most 100 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.in)
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("Check(%q) = %v, want nil", tc.in, err)
				}
				return
			}
			var e *diag.Error
			if !errors.As(err, &e) || e.Code != Code || e.Hint != Hint {
				t.Fatalf("Check(%q) = %v, want an E-BLD-001 with the hint", tc.in, err)
			}
			if want := "invalid artifact name '" + tc.in + "': " + tc.reason; err.Error() != want {
				t.Errorf("message %q, want %q", err.Error(), want)
			}
		})
	}
}
