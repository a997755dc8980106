package stage

import (
	"testing"
	"time"
)

func TestSessionIDTime(t *testing.T) {
	at := time.UnixMilli(1764600000123)
	id, err := NewSessionID(at, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		want time.Time
		ok   bool
	}{
		{id, at, true},
		{"ses_0123", time.Time{}, false},
		{"ses_ZZ" + id[6:], time.Time{}, false},
		{"notes", time.Time{}, false},
	} {
		got, ok := SessionIDTime(tc.id)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("SessionIDTime(%q) = %v, %v; want %v, %v", tc.id, got, ok, tc.want, tc.ok)
		}
	}
}
