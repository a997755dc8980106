package a2a

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"
)

func streamRequest(t *testing.T, s *served, text string) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"messageId":"m1","role":"user","parts":[{"kind":"text","text":"` + text + `"}]}}}`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.url+"/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// A client that opens a stream and never reads it does not hold up the
// loop: 16 MiB of chunks later the task has ended.
func TestStalledConsumerNeverBlocksTheLoop(t *testing.T) {
	s := serve(t)
	streamRequest(t, s, "flood:16384") // never read
	waitRan(t, s, 1)
	if got := send(t, v1(t, s), "after", false); statusText(got) != "echo: after" {
		t.Fatalf("the next task answered %q", statusText(got))
	}
}

// A quiet stream carries heartbeats.
func TestStreamsCarryHeartbeats(t *testing.T) {
	s := serve(t, func(o *ServerOptions) { o.Heartbeat = 20 * time.Millisecond })
	resp := streamRequest(t, s, "block")
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), ":") {
			return
		}
	}
	t.Fatalf("the stream ended without a heartbeat: %v", sc.Err())
}
