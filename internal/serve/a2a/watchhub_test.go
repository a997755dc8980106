package a2a

import (
	"fmt"
	"testing"
)

// The replay ring keeps the newest replayFrames frames in order across
// wrap-arounds, reports the gap a watcher fell into, and encodes each
// frame's payload as it is read.
func TestWatchHubRing(t *testing.T) {
	for _, emitted := range []int{1, replayFrames - 1, replayFrames, replayFrames + 1, 3*replayFrames + 7} {
		for _, last := range []uint64{0, uint64(emitted) - 1, uint64(emitted)} {
			t.Run(fmt.Sprintf("emitted=%d/last=%d", emitted, last), func(t *testing.T) {
				h := newWatchHub("")
				for i := 1; i <= emitted; i++ {
					h.emit("text", watchText{ID: "tsk_1", Text: fmt.Sprint(i)})
				}
				frames, gap, first, wake, closed := h.since(last)
				oldest := uint64(max(1, emitted-replayFrames+1))
				if wantGap := last+1 < oldest; gap != wantGap || (gap && first != oldest) {
					t.Errorf("gap %v first %d, want gap %v from %d", gap, first, wantGap, oldest)
				}
				from := max(last+1, oldest)
				if want := uint64(emitted) + 1 - from; uint64(len(frames)) != want {
					t.Fatalf("%d frames, want %d", len(frames), want)
				}
				for i, f := range frames {
					id := from + uint64(i)
					if want := fmt.Sprintf(`{"id":"tsk_1","text":"%d","final":false}`, id); f.id != id || string(f.data) != want {
						t.Errorf("frame %d: id %d data %s, want id %d data %s", i, f.id, f.data, id, want)
					}
				}
				if wake == nil || closed {
					t.Fatalf("an open hub gave wake %v closed %v", wake, closed)
				}
				h.emit("text", watchText{ID: "tsk_1", Text: "next"})
				select {
				case <-wake:
				default:
					t.Error("a new frame did not wake the watcher")
				}
			})
		}
	}
}
