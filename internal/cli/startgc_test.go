package cli

import (
	"io"
	"runtime/debug"
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

// The collector is off only while mur run starts: restore puts back what
// was there, once; a script capsule's start-up ends when it is staged
// (it is never announced), an agent capsule's when its URL is printed.
func TestStartupGCEndsWithStartUp(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := relaxStartupGC()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("during start-up the collector's percent is %d, want off", p)
	}
	restore()
	restore()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after start-up the collector's percent is %d, want 100 back", p)
	}

	cases := []struct {
		name  string
		cap   manifest.Capsule
		ended bool
	}{
		{"script capsule", manifest.Capsule{Name: "s"}, true},
		{"agent capsule", manifest.Capsule{Name: "a", Inference: &manifest.Inference{}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ended := false
			r := &runner{info: io.Discard, opts: runOptions{json: true}, startupDone: func() { ended = true }}
			r.printSession(&stage.Staged{Capsule: &c.cap})
			if ended != c.ended {
				t.Errorf("start-up ended at staging: %v, want %v", ended, c.ended)
			}
		})
	}
}
