package a2a

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// serveWatch is Murmur's stream/watch (a2a-cli.md §2.9): a passive
// observer's SSE stream of every task's named events, from Last-Event-ID
// (or the oldest kept frame) on, until the capsule closes.
func (m *mux) serveWatch(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "stream/watch is a JSON-RPC POST", http.StatusMethodNotAllowed)
		return
	}
	var env struct {
		JSONRPC string           `json:"jsonrpc"`
		ID      *json.RawMessage `json:"id"`
		Method  string           `json:"method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&env); err != nil {
		rpcError(w, nil, -32700, "Parse error: "+err.Error())
		return
	}
	if env.Method != "stream/watch" {
		rpcError(w, env.ID, -32601, fmt.Sprintf("Method not found: %q (this route serves stream/watch only)", env.Method))
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		rpcError(w, env.ID, -32603, "streaming is not supported by this connection")
		return
	}
	last, _ := strconv.ParseUint(strings.TrimSpace(r.Header.Get("Last-Event-ID")), 10, 64)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	ack, _ := json.Marshal(map[string]string{"role": "observer", "conversation_mode": m.watch.mode})
	if writeFrame(w, frame{event: "connection-ack", data: ack}) != nil {
		return
	}
	flusher.Flush()
	for {
		frames, gap, first, wake, closed := m.watch.since(last)
		if gap {
			data, _ := json.Marshal(map[string]uint64{"first_available_id": first})
			if writeFrame(w, frame{event: "gap", data: data}) != nil {
				return
			}
		}
		for _, f := range frames {
			if writeFrame(w, f) != nil {
				return
			}
			last = f.id
		}
		if closed {
			_ = writeFrame(w, frame{event: "capsule-closed", data: []byte("{}")})
			flusher.Flush()
			return
		}
		flusher.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-wake:
		}
	}
}

// writeFrame writes one SSE frame: an id line only for stored frames.
func writeFrame(w http.ResponseWriter, f frame) error {
	var err error
	if f.id != 0 {
		_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", f.id, f.event, f.data)
	} else {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", f.event, f.data)
	}
	return err
}
