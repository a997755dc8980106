package a2a

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// httpBase is url with a scheme and without a trailing slash.
func httpBase(url string) string {
	if !strings.Contains(url, "://") {
		url = "http://" + url
	}
	return strings.TrimSuffix(url, "/")
}

func withToken(hc *http.Client, token string) *http.Client {
	if hc == nil {
		hc = &http.Client{}
	}
	if token == "" {
		return hc
	}
	c := *hc
	c.Transport = bearer{token: token, next: hc.Transport}
	return &c
}

// ServingSession asks the capsule at url which session and process serve
// it (mur-go's /murmur/session).
func ServingSession(ctx context.Context, hc *http.Client, url, token string) (sessionID string, pid int, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpBase(url)+"/murmur/session", nil)
	if err != nil {
		return "", 0, err
	}
	resp, err := withToken(hc, token).Do(req)
	if err != nil {
		return "", 0, fmt.Errorf("asking %s which session it serves: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", 0, fmt.Errorf("asking %s which session it serves: HTTP %d", url, resp.StatusCode)
	}
	var s struct {
		SessionID string `json:"session_id"`
		PID       int    `json:"pid"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&s); err != nil {
		return "", 0, fmt.Errorf("asking %s which session it serves: %w", url, err)
	}
	return s.SessionID, s.PID, nil
}

// CancelTask cancels task at url (v1.0, else v0.3) and returns the state
// it ended in, lower-case without TASK_STATE_.
func CancelTask(ctx context.Context, hc *http.Client, url, token, task string) (string, error) {
	hc = withToken(hc, token)
	base := httpBase(url)
	var lastErr error
	for _, v := range []sdk.ProtocolVersion{sdk.Version, a2av0.Version} {
		c, err := a2aclient.NewFromEndpoints(ctx, []*sdk.AgentInterface{{URL: base, ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: v}},
			a2aclient.WithJSONRPCTransport(hc), a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: hc}))
		if err != nil {
			return "", err
		}
		t, err := c.CancelTask(ctx, &sdk.CancelTaskRequest{ID: sdk.TaskID(task)})
		_ = c.Destroy()
		if err == nil {
			var r Reply
			r.setStatus(t.Status)
			return r.State, nil
		}
		if !fallback(err) {
			return "", err
		}
		lastErr = err
	}
	return "", lastErr
}
