package a2a

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strings"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

// httpBase is url with a scheme and without a trailing slash.
func httpBase(url string) string {
	if !strings.Contains(url, "://") {
		url = "http://" + url
	}
	return strings.TrimSuffix(url, "/")
}

// userClient is the guarded client of a user-driven command talking to
// base: no network policy, the token to base's origin only, bounded
// replies.
func userClient(tr http.RoundTripper, base, token string) *http.Client {
	g := &guard{token: token, next: tr, maxBody: maxA2AResponse}
	if u, err := neturl.Parse(base); err == nil {
		g.origin = originOf(u)
	}
	return newHTTPClient(g)
}

// ServingSession asks the capsule at url which session and process serve
// it (mur-go's /murmur/session). tr nil is http.DefaultTransport.
func ServingSession(ctx context.Context, tr http.RoundTripper, url, token string) (sessionID string, pid int, err error) {
	base := httpBase(url)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/murmur/session", nil)
	if err != nil {
		return "", 0, err
	}
	resp, err := userClient(tr, base, token).Do(req)
	if err != nil {
		return "", 0, fmt.Errorf("asking %s which session it serves: %w", url, connectError(url, err))
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

// CancelTask cancels task at url, speaking what its card offers
// (discover.go), and returns the state it ended in, lower-case without
// TASK_STATE_. tr nil is http.DefaultTransport.
func CancelTask(ctx context.Context, tr http.RoundTripper, url, token, task string) (string, error) {
	base := httpBase(url)
	hc := userClient(tr, base, token)
	eps, err := discover(ctx, hc, base, nil)
	if err != nil {
		return "", connectError(url, err)
	}
	t, _, err := each(eps, func(e *endpoint) (*sdk.Task, error) {
		return withSDK(ctx, hc, e, func(c *a2aclient.Client) (*sdk.Task, error) {
			return c.CancelTask(ctx, &sdk.CancelTaskRequest{ID: sdk.TaskID(task)})
		})
	})
	if err != nil {
		return "", err
	}
	return stateName(t.Status.State), nil
}
