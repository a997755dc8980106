package a2a

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

// s0 are the options of a served session in a fresh workdir.
func s0(t *testing.T) ServerOptions {
	return ServerOptions{SessionID: "ses_test", Workdir: t.TempDir()}
}

// rpc POSTs a raw JSON-RPC body and returns the decoded reply.
func rpc(t *testing.T, url, body string, headers map[string]string) map[string]any {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("reply is not JSON (HTTP %d): %q", resp.StatusCode, data)
	}
	out["http_status"] = float64(resp.StatusCode)
	return out
}

// waitRan waits until the fake loop ran n tasks.
func waitRan(t *testing.T, s *served, n int) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for range n {
		select {
		case <-s.loop.finished:
		case <-timeout:
			t.Fatalf("the loop ran %d tasks, want %d", len(s.loop.tasks()), n)
		}
	}
}
