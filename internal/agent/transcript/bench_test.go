package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/redact"
)

// BenchmarkTurn is one turn of a 20-turn task as the transcript sees it
// (a model call and a tool call, each start and end), with a session
// secret set; the request carries every earlier turn's messages (~2 KiB
// each), of which only the two new ones are written.
func BenchmarkTurn(b *testing.B) {
	dir := b.TempDir()
	w, err := Open(dir, Options{SessionID: "ses_x", Secrets: redact.New("sk-bench-secret-0123456789")})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	out := strings.Repeat("result text ", 170)
	msgs := []string{`{"role":"user","content":[{"type":"text","text":"do it"}]}`}
	var requests []string
	for turn := range 20 {
		requests = append(requests, "["+strings.Join(msgs, ",")+"]")
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":[{"type":"tool_call","id":"c%d","name":"t","input":{}}]}`, turn),
			fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","is_error":false,"content":[{"type":"text","text":%q}]}`, turn, out))
	}
	now := time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		turn := uint32(i % 20)
		if turn == 0 {
			w.Observe(observe.Event{Kind: observe.TaskStart, Time: now, TaskID: "t"})
		}
		w.Observe(observe.Event{Kind: observe.ModelStart, Time: now, TaskID: "t", Turn: turn, Input: requests[turn]})
		w.Observe(observe.Event{Kind: observe.ModelEnd, Time: now, TaskID: "t", Turn: turn, Output: `{"stop_reason":"tool_call","content":[]}`, Duration: time.Millisecond})
		w.Observe(observe.Event{Kind: observe.ToolStart, Time: now, TaskID: "t", Turn: turn, Name: "t", Input: "{}"})
		w.Observe(observe.Event{Kind: observe.ToolEnd, Time: now, TaskID: "t", Turn: turn, Name: "t", Output: out, Duration: time.Millisecond})
		if turn == 19 {
			w.Observe(observe.Event{Kind: observe.TaskEnd, Time: now, TaskID: "t"})
		}
	}
	b.StopTimer()
	if fi, err := os.Stat(filepath.Join(dir, FileName)); err == nil {
		b.ReportMetric(float64(fi.Size())/float64(b.N), "file-B/turn")
	}
}
