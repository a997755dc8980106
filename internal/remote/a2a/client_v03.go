package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/google/uuid"
)

// sendV03 is message/send over A2A 0.3 JSON-RPC, written by hand rather
// than through the SDK's 0.3 client: that client refuses a result without
// "kind", and Murmur's own server, the 0.3 peer a capsule most often
// talks to, sends its Task without one (a2a-cli.md §2.4).
func sendV03(ctx context.Context, hc *http.Client, endpointURL, peer string, m *sdk.Message) (TaskResult, error) {
	body, err := v03Request(m)
	if err != nil {
		return TaskResult{}, fmt.Errorf("failed to connect to %s: %w", peer, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpointURL, bytes.NewReader(body))
	if err != nil {
		return TaskResult{}, fmt.Errorf("failed to connect to %s: %w", peer, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return TaskResult{}, sendError(peer, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return TaskResult{}, sendError(peer, err)
	}
	return parseV03Response(peer, resp.StatusCode, raw)
}

type v03Part struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

type v03Message struct {
	Kind      string    `json:"kind"`
	MessageID string    `json:"messageId"`
	ContextID string    `json:"contextId,omitempty"`
	Role      string    `json:"role"`
	Parts     []v03Part `json:"parts"`
}

func v03Request(m *sdk.Message) ([]byte, error) {
	// Murmur spells JSON-RPC request ids req_<uuidv7>.
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	var text string
	if len(m.Parts) > 0 {
		text = m.Parts[0].Text()
	}
	return json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      "req_" + id.String(),
		"method":  "message/send",
		"params": map[string]any{
			"message": v03Message{Kind: "message", MessageID: m.ID, ContextID: m.ContextID, Role: "user",
				Parts: []v03Part{{Kind: "text", Text: text}}},
			// Return once the peer has the task, as Murmur's server always does.
			"configuration": map[string]any{"blocking": false},
		},
	})
}

// parseV03Response maps a JSON-RPC reply to task-result with Murmur's
// error wording (wit.md §5.7).
func parseV03Response(peer string, status int, raw []byte) (TaskResult, error) {
	var env struct {
		Error  json.RawMessage `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		if status/100 != 2 {
			err = fmt.Errorf("HTTP %d: %w", status, err)
		}
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: %w", peer, err)
	}
	if len(env.Error) > 0 && string(env.Error) != "null" {
		var compact bytes.Buffer
		_ = json.Compact(&compact, env.Error)
		return TaskResult{}, fmt.Errorf("A2A error from %s: %s", peer, compact.String())
	}
	if len(env.Result) == 0 || string(env.Result) == "null" {
		return TaskResult{}, fmt.Errorf("no result in A2A response from %s", peer)
	}
	var res struct {
		Kind      string `json:"kind"`
		ID        string `json:"id"`
		TaskID    string `json:"taskId"`
		ContextID string `json:"contextId"`
		Status    struct {
			State string `json:"state"`
		} `json:"status"`
	}
	if err := json.Unmarshal(env.Result, &res); err != nil {
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: %w", peer, err)
	}
	if res.Kind == "message" {
		return TaskResult{TaskID: res.TaskID, ContextID: res.ContextID, State: "completed"}, nil
	}
	if res.ID == "" {
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: missing task id", peer)
	}
	if !knownTaskState(res.Status.State) {
		return TaskResult{}, fmt.Errorf("failed to parse A2A task from %s: unknown task state '%s'", peer, res.Status.State)
	}
	return TaskResult{TaskID: res.ID, ContextID: res.ContextID, State: res.Status.State}, nil
}
