package a2a

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// WatchEvent is one named SSE event of a capsule's stream/watch.
type WatchEvent struct {
	ID    string // "" for frames without an id line
	Event string
	Data  json.RawMessage
}

// maxWatchLine bounds one SSE line (a chunk or tool result).
const maxWatchLine = 8 << 20

// Watch follows the stream/watch feed of the capsule at url (mur-go's
// /murmur route, else Murmur's POST /) from event lastID on, calling on
// for every event until the stream ends or ctx does. tr nil is
// http.DefaultTransport.
func Watch(ctx context.Context, tr http.RoundTripper, url, token string, lastID string, on func(WatchEvent)) error {
	base := httpBase(url)
	hc := userClient(tr, base, token)
	var resp *http.Response
	for _, path := range []string{"/murmur", "/"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path,
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"stream/watch","params":{}}`))
		if err != nil {
			return fmt.Errorf("watch %s: %w", url, err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Last-Event-ID", lastID)
		if resp, err = hc.Do(req); err != nil {
			if errors.Is(err, errNotServed) {
				continue // Murmur's route, or nothing
			}
			return fmt.Errorf("watch %s: %w", url, connectError(url, err))
		}
		if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			break
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			return fmt.Errorf("watch %s: the capsule wants a token (--token or MURMUR_A2A_TOKEN)", url)
		}
		resp = nil
	}
	if resp == nil {
		return fmt.Errorf("watch %s: the capsule serves no stream/watch", url)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), maxWatchLine)
	var ev WatchEvent
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.Event != "" {
				ev.Data = append(json.RawMessage(nil), data.Bytes()...)
				on(ev)
			}
			ev, data = WatchEvent{}, bytes.Buffer{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id:"):
			ev.ID = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "event:"):
			ev.Event = strings.TrimSpace(line[6:])
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(line[5:], " "))
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("watch %s: %w", url, err)
	}
	return nil
}
