package component_test

import (
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
)

func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{time.Second, "1s"},
		{600 * time.Second, "600s"},
		{500 * time.Millisecond, "0.5s"},
		{1500 * time.Millisecond, "1.5s"},
		{time.Millisecond, "0.001s"},
	} {
		if got := component.FormatSeconds(tc.d); got != tc.want {
			t.Errorf("FormatSeconds(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
