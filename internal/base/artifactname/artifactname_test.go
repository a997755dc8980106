package artifactname

import (
	"errors"
	"strings"
	"testing"
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
			var e *Error
			if !errors.As(err, &e) || e.Reason != tc.reason || e.Name != tc.in {
				t.Fatalf("Check(%q) = %v, want reason %q", tc.in, err, tc.reason)
			}
			if want := "invalid artifact name '" + tc.in + "': " + tc.reason; err.Error() != want {
				t.Errorf("message %q, want %q", err.Error(), want)
			}
		})
	}
}
