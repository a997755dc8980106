package a2a

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

type sseFrame struct {
	id    uint64
	event string
	data  map[string]any
}

// watch opens stream/watch from lastID (0: from the oldest) and returns
// its frames as they arrive.
func watch(t *testing.T, ctx context.Context, s *served, lastID uint64) <-chan sseFrame {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url+MurmurWatchPath,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"stream/watch","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Last-Event-ID", strconv.FormatUint(lastID, 10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream/watch answered %s", resp.Header.Get("Content-Type"))
	}
	out := make(chan sseFrame, 4096)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		var f sseFrame
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				out <- f
				f = sseFrame{}
			case strings.HasPrefix(line, "id: "):
				f.id, _ = strconv.ParseUint(line[4:], 10, 64)
			case strings.HasPrefix(line, "event: "):
				f.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(line[6:]), &f.data)
			}
		}
	}()
	return out
}

// until collects frames up to and including the first final status.
func until(t *testing.T, frames <-chan sseFrame) []sseFrame {
	t.Helper()
	var got []sseFrame
	for f := range frames {
		got = append(got, f)
		if f.event == "status" && f.data["final"] == true {
			return got
		}
	}
	t.Fatalf("the stream ended before a final status: %v", got)
	return nil
}

func TestWatchStreamsNamedEventsAndReplays(t *testing.T) {
	s := serve(t, func(o *ServerOptions) { o.Lifecycle.Conversation = "threaded" })
	ctx, cancel := context.WithCancel(t.Context())
	live := watch(t, ctx, s, 0)
	ack := <-live
	if ack.event != "connection-ack" || ack.data["conversation_mode"] != "threaded" || ack.id != 0 {
		t.Fatalf("first frame %+v, want connection-ack for threaded", ack)
	}
	send(t, v1(t, s), "chunks:a,b", false)
	frames := until(t, live)
	cancel()
	var kinds []string
	for _, f := range frames {
		kinds = append(kinds, f.event)
	}
	want := "status,text,text,thinking,text,status"
	if strings.Join(kinds, ",") != want {
		t.Fatalf("events %v, want %s", kinds, want)
	}
	last := frames[len(frames)-1]
	if st := last.data["status"].(map[string]any); st["state"] != "completed" || st["response"] != "ab" {
		t.Errorf("final status %v", last.data)
	}
	// Reconnecting after the third frame replays exactly the rest.
	ctx2, cancel2 := context.WithCancel(t.Context())
	defer cancel2()
	replay := watch(t, ctx2, s, frames[2].id)
	<-replay // connection-ack
	got := until(t, replay)
	if len(got) != len(frames)-3 || got[0].id != frames[3].id {
		t.Fatalf("replay after id %d gave %d frames from id %d, want %d from %d", frames[2].id, len(got), got[0].id, len(frames)-3, frames[3].id)
	}
}

func TestWatchReportsAGapWhenTheRingDroppedFrames(t *testing.T) {
	s := serve(t)
	chunks := strings.TrimSuffix(strings.Repeat("x,", replayFrames+10), ",")
	send(t, v1(t, s), "chunks:"+chunks, false)
	frames := watch(t, t.Context(), s, 1)
	<-frames // connection-ack
	gap := <-frames
	if gap.event != "gap" || gap.data["first_available_id"].(float64) <= 2 {
		t.Fatalf("frame after ack %+v, want a gap naming the oldest kept id", gap)
	}
	rest := until(t, frames)
	if len(rest) != replayFrames || uint64(gap.data["first_available_id"].(float64)) != rest[0].id {
		t.Errorf("replayed %d frames from %d, want the %d kept from the gap's id", len(rest), rest[0].id, replayFrames)
	}
}

func TestWatchEndsWithCapsuleClosed(t *testing.T) {
	s := serve(t, lifecycle(AcceptSingle, "exit", 1))
	frames := watch(t, t.Context(), s, 0)
	<-frames
	send(t, v1(t, s), "bye", false)
	var lastEvent string
	for f := range frames {
		lastEvent = f.event
	}
	if lastEvent != "capsule-closed" {
		t.Fatalf("the watch stream ended with %q, want capsule-closed", lastEvent)
	}
}
