package a2a

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"slices"
	"strings"
	"time"

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

// TaskInfo is one task as a peer lists it.
type TaskInfo struct {
	ID, ContextID string
	// State is lower-case without TASK_STATE_ (working, completed, …).
	State string
	// Updated is when the task's status last changed; zero if unknown.
	Updated time.Time
}

// Terminal reports whether the task has ended (it can no longer be
// cancelled or answered).
func (t TaskInfo) Terminal() bool {
	switch t.State {
	case "completed", "failed", "canceled", "rejected":
		return true
	}
	return false
}

// maxListPage is the largest page ListTasks asks for (the protocol's).
const maxListPage = 100

// ListTasks lists the tasks of the agent at url, the most recently
// updated first: those in
// one of states (all when none), at most limit of them, and how many
// matched in all. tr nil is http.DefaultTransport.
func ListTasks(ctx context.Context, tr http.RoundTripper, url, token string, limit int, states ...string) ([]TaskInfo, int, error) {
	base := httpBase(url)
	hc := userClient(tr, base, token)
	eps, err := discover(ctx, hc, base, nil)
	if err != nil {
		return nil, 0, connectError(url, err)
	}
	filters := states
	if len(filters) == 0 {
		filters = []string{""}
	}
	var out []TaskInfo
	total := 0
	for _, s := range filters {
		req := &sdk.ListTasksRequest{Status: stateOf(s), PageSize: min(max(limit, 1), maxListPage)}
		resp, _, err := each(eps, func(e *endpoint) (*sdk.ListTasksResponse, error) {
			return withSDK(ctx, hc, e, func(c *a2aclient.Client) (*sdk.ListTasksResponse, error) { return c.ListTasks(ctx, req) })
		})
		if err != nil {
			return nil, 0, err
		}
		total += resp.TotalSize
		for _, t := range resp.Tasks {
			out = append(out, taskInfo(t))
		}
	}
	slices.SortStableFunc(out, func(a, b TaskInfo) int { return b.Updated.Compare(a.Updated) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, total, nil
}

// GetTask asks the agent at url for one task; an unknown task is an error
// matching ErrTaskNotFound. tr nil is http.DefaultTransport.
func GetTask(ctx context.Context, tr http.RoundTripper, url, token, task string) (TaskInfo, error) {
	base := httpBase(url)
	hc := userClient(tr, base, token)
	eps, err := discover(ctx, hc, base, nil)
	if err != nil {
		return TaskInfo{}, connectError(url, err)
	}
	t, _, err := each(eps, func(e *endpoint) (*sdk.Task, error) {
		return withSDK(ctx, hc, e, func(c *a2aclient.Client) (*sdk.Task, error) {
			return c.GetTask(ctx, &sdk.GetTaskRequest{ID: sdk.TaskID(task)})
		})
	})
	if err != nil {
		return TaskInfo{}, err
	}
	return taskInfo(t), nil
}

func taskInfo(t *sdk.Task) TaskInfo {
	info := TaskInfo{ID: string(t.ID), ContextID: t.ContextID, State: stateName(t.Status.State)}
	if t.Status.Timestamp != nil {
		info.Updated = *t.Status.Timestamp
	}
	return info
}

// ErrTaskNotFound is the protocol's task-not-found error.
var ErrTaskNotFound = sdk.ErrTaskNotFound

// stateOf is a state as stateName spells it, back in the protocol's
// form; "" is none.
func stateOf(s string) sdk.TaskState {
	if s == "" {
		return ""
	}
	return sdk.TaskState("TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(s, "-", "_")))
}
