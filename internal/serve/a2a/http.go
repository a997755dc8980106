package a2a

import (
	"crypto/subtle"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
)

// Routes beside the public protocol's.
const (
	CardPath        = "/.well-known/agent-card.json"
	MurmurCardPath  = "/murmur/agent-card.json"
	MurmurWatchPath = "/murmur"
	// MurmurSessionPath names the session and process serving the port, so
	// mur stop signals the right process.
	MurmurSessionPath = "/murmur/session"
	versionHeader     = "A2A-Version"
)

// mux routes one port: the public card, POST / to JSON-RPC v1.0 (with an
// A2A-Version header of 1.x) or v0.3 (without one), Murmur's routes, and
// every other path to the HTTP+JSON binding. Every route but the card is
// behind the token and then the body bounds (routes), so no byte of an
// unauthenticated body is read.
type mux struct {
	v1, v0, rest http.Handler
	routes       http.Handler
	watch        *watchHub
	mcard        []byte
	cards        cardSource
	session      []byte
	token        []byte
	log          *slog.Logger
}

func (m *mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if path == CardPath {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "the agent card is fetched with GET", http.StatusMethodNotAllowed)
			return
		}
		card, err := m.cards.forHost(r.Context(), r.Host)
		if err != nil {
			http.Error(w, "building the agent card: "+err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, card)
		return
	}
	if !m.authorized(r) {
		// The connection is closed too: an unauthenticated client keeps
		// nothing open, nor its body's unread bytes in the way.
		w.Header().Set("WWW-Authenticate", `Bearer realm="murmur"`)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":"this capsule requires Authorization: Bearer <token> (MURMUR_A2A_TOKEN)"}` + "\n"))
		return
	}
	m.routes.ServeHTTP(w, r)
}

// route serves an authorized request, its body already read.
func (m *mux) route(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if tp := strings.TrimSpace(r.Header.Get("traceparent")); tp != "" {
		r = r.WithContext(withTraceparent(r.Context(), tp))
	}
	switch {
	case path == MurmurCardPath:
		writeJSON(w, m.mcard)
	case path == MurmurSessionPath && m.session != nil:
		writeJSON(w, m.session)
	case path == MurmurWatchPath && m.watch != nil:
		m.serveWatch(w, r)
	case path == MurmurSessionPath || path == MurmurWatchPath:
		http.Error(w, "this front door serves no session of its own: "+path+" is mur run's", http.StatusNotFound)
	case path == "/" || path == "":
		if isV1(r.Header.Get(versionHeader)) {
			m.v1.ServeHTTP(w, r)
		} else {
			m.v0.ServeHTTP(w, r)
		}
	default:
		m.rest.ServeHTTP(w, r)
	}
}

// isV1 reports whether an A2A-Version header asks for 1.x; no header is
// v0.3 (a2a-cli.md: what deployed clients speak).
func isV1(v string) bool {
	v = strings.TrimSpace(v)
	return v == "1" || strings.HasPrefix(v, "1.")
}

// authorized compares the bearer token in constant time; no token
// configured means no check.
func (m *mux) authorized(r *http.Request) bool {
	if len(m.token) == 0 {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), m.token) == 1
}

func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// rpcError writes a JSON-RPC error response (always HTTP 200).
func rpcError(w http.ResponseWriter, id any, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}
