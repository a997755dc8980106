package a2a

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A client without the token reaches nothing but the public card; the
// token is checked on every route and binding.
func TestBearerTokenGuardsEveryRoute(t *testing.T) {
	s := serve(t, func(o *ServerOptions) { o.Token = "s3cret-token" })
	send := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"}]}}}`
	sendV1 := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`
	routes := []struct {
		name, method, path, body string
		headers                  map[string]string
	}{
		{"v0.3 JSON-RPC", "POST", "/", send, nil},
		{"v1.0 JSON-RPC", "POST", "/", sendV1, map[string]string{"A2A-Version": "1.0"}},
		{"v1.0 HTTP+JSON", "POST", "/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}`, map[string]string{"A2A-Version": "1.0"}},
		{"tasks", "GET", "/tasks", "", nil},
		{"stream/watch", "POST", MurmurWatchPath, `{"jsonrpc":"2.0","id":1,"method":"stream/watch","params":{}}`, nil},
		{"murmur card", "GET", MurmurCardPath, "", nil},
	}
	for _, r := range routes {
		for _, auth := range []string{"", "Bearer wrong-token!", "Bearer s3cret-toke", "s3cret-token", "Basic s3cret-token"} {
			t.Run(r.name+"/"+auth, func(t *testing.T) {
				req, _ := http.NewRequestWithContext(t.Context(), r.method, s.url+r.path, strings.NewReader(r.body))
				req.Header.Set("Content-Type", "application/json")
				for k, v := range r.headers {
					req.Header.Set(k, v)
				}
				if auth != "" {
					req.Header.Set("Authorization", auth)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusUnauthorized {
					t.Fatalf("%s %s with Authorization %q: HTTP %d, want 401", r.method, r.path, auth, resp.StatusCode)
				}
			})
		}
	}
	if len(s.loop.tasks()) != 0 {
		t.Fatal("an unauthenticated message reached the loop")
	}
	resp, err := http.Get(s.url + CardPath)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the public card needs no token: %v %v", resp, err)
	}
	resp.Body.Close()
	got := rpc(t, s.url+"/", send, map[string]string{"Authorization": "Bearer s3cret-token"})
	if got["result"] == nil {
		t.Fatalf("with the token: %v", got)
	}
}

// The token is checked before a byte of the body is read: a client
// without it that announces a large body and sends none is answered 401
// at once, and its connection closed, instead of being waited for.
func TestTokenIsCheckedBeforeTheBody(t *testing.T) {
	s := serve(t, func(o *ServerOptions) { o.Token = "s3cret-token" })
	addr := strings.TrimPrefix(s.url, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Well short of the 30 s a server waiting for the body would take.
	if err := c.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{", addr); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("an unauthenticated large body: %v %v, want 401 before the body", resp, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if _, err := r.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("the unauthenticated connection stays open: %v", err)
	}
}

// A body over the bound is refused (413, before a byte of it is read),
// however valid it is.
func TestOversizedBodyIsRefused(t *testing.T) {
	s := serve(t, func(o *ServerOptions) { o.Limits.MaxBody = 64 << 10 })
	big := strings.Repeat("A", 128<<10)
	for _, v := range []string{"", "1.0"} {
		body := `{"jsonrpc":"2.0","id":7,"method":"message/send","params":{"message":{"messageId":"m","role":"user","parts":[{"kind":"text","text":"` + big + `"}]}}}`
		h := map[string]string{}
		if v != "" {
			h["A2A-Version"] = v
			body = `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"` + big + `"}]}}}`
		}
		got := rpc(t, s.url+"/", body, h)
		if got["error"] == nil || got["http_status"] != float64(http.StatusRequestEntityTooLarge) {
			t.Fatalf("version %q: a %d-byte body was accepted: %v", v, len(body), got["result"] != nil)
		}
	}
	if n := len(s.loop.tasks()); n != 0 {
		t.Fatalf("the loop ran %d oversized tasks", n)
	}
	if got := send(t, v1(t, s), "small", false); got.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("a small task after the refusals ended %s", got.Status.State)
	}
}

// A task.md link left in a reused workdir (a shell tool of an earlier
// session can plant one) must not carry the next A2A message out of it.
func TestPlantedTaskLinkIsNotFollowed(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := serve(t, func(o *ServerOptions) {
		if err := os.Symlink(outside, filepath.Join(o.Workdir, "task.md")); err != nil {
			t.Fatal(err)
		}
	})
	got := send(t, v1(t, s), "attacker-chosen text", false)
	if data, _ := os.ReadFile(outside); !bytes.Equal(data, []byte("original")) {
		t.Fatalf("the A2A message was written through the planted link: %q", data)
	}
	if got.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(got), "task.md") {
		t.Fatalf("task %s %q, want failed saying task.md could not be written", got.Status.State, statusText(got))
	}
	if len(s.loop.tasks()) != 0 {
		t.Fatal("the loop ran a task whose task.md was not written")
	}
}

// Push notifications are declared unsupported, and a webhook is refused
// rather than accepted and never called.
func TestPushNotificationsAreRefused(t *testing.T) {
	s := serve(t)
	c := v1(t, s)
	card, err := c.GetExtendedAgentCard(t.Context(), &a2a.GetExtendedAgentCardRequest{})
	if err == nil {
		t.Errorf("extended card: %+v", card)
	}
	req := userMessage("hi")
	req.Config = &a2a.SendMessageConfig{PushConfig: &a2a.PushConfig{URL: "http://127.0.0.1:1/hook"}}
	if _, err := c.SendMessage(t.Context(), req); !errors.Is(err, a2a.ErrPushNotificationNotSupported) {
		t.Errorf("a message with a webhook: %v, want push notifications not supported", err)
	}
	if _, err := c.CreateTaskPushConfig(t.Context(), &a2a.PushConfig{TaskID: "tsk_x", URL: "http://127.0.0.1:1/hook"}); !errors.Is(err, a2a.ErrPushNotificationNotSupported) {
		t.Errorf("CreateTaskPushConfig: %v, want push notifications not supported", err)
	}
	if len(s.loop.tasks()) != 0 {
		t.Error("a message with a webhook reached the loop")
	}
}
