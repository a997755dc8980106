package stage

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
	"time"
)

func TestNewSessionID(t *testing.T) {
	now := time.UnixMilli(0x0195512b4e00)
	id, err := NewSessionID(now, bytes.NewReader(bytes.Repeat([]byte{0xff}, 10)))
	if err != nil {
		t.Fatal(err)
	}
	if len(id) != 36 || !strings.HasPrefix(id, "ses_") || !ValidSessionID(id) {
		t.Fatalf("id = %q", id)
	}
	raw, _ := hex.DecodeString(id[4:])
	if got := hex.EncodeToString(raw[:6]); got != "0195512b4e00" {
		t.Fatalf("timestamp = %s", got)
	}
	if raw[6]>>4 != 7 || raw[8]>>6 != 2 {
		t.Fatalf("version/variant bits wrong: %x", raw)
	}
	if id != "ses_0195512b4e007fffbfffffffffffffff" {
		t.Fatalf("id = %s", id)
	}
	a, _ := NewSessionID(now, nil)
	b, _ := NewSessionID(now, nil)
	if a == b {
		t.Fatal("two ids in the same millisecond collide")
	}
	later, _ := NewSessionID(now.Add(time.Millisecond), nil)
	if later <= a {
		t.Fatal("ids are not time-ordered")
	}
}

func TestValidSessionID(t *testing.T) {
	for id, ok := range map[string]bool{
		"ses_0195512b4e007fffbfffffffffffffff":  true,
		"ses_0195512B4E007FFFBFFFFFFFFFFFFFFF":  false,
		"ses_0195512b4e007fffbffffffffffffff":   false,
		"tsk_0195512b4e007fffbfffffffffffffff":  false,
		"ses_0195512b4e007fffbfffffffffffffff/": false,
		"":                                      false,
	} {
		if ValidSessionID(id) != ok {
			t.Errorf("ValidSessionID(%q) != %v", id, ok)
		}
	}
}
