package registry

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/mur-go/mur/internal/format/artifact"
)

// DefaultMaxUpload caps a published package's size.
const DefaultMaxUpload = artifact.DefaultMaxDecompressedBytes

// ServerOption configures NewServer.
type ServerOption func(*server)

// WithAPIKey requires "Authorization: Bearer <key>" on every request.
// Without it the server is open, which suits tests and a registry bound to
// loopback only.
func WithAPIKey(key string) ServerOption { return func(s *server) { s.apiKey = key } }

// WithLogger sends request diagnostics to log.
func WithLogger(log *slog.Logger) ServerOption { return func(s *server) { s.log = log } }

// WithMaxUpload caps the body of a publish (default DefaultMaxUpload).
func WithMaxUpload(n int64) ServerOption { return func(s *server) { s.maxUpload = n } }

// server is a Nexus registry over a Local store.
type server struct {
	store     *Local
	apiKey    string
	log       *slog.Logger
	maxUpload int64
	publish   sync.Mutex // one publish at a time keeps no-overwrite exact
}

// NewServer serves the Nexus protocol from the directory registry at dir:
//
//	POST /v1/artifacts?name=&version=&runtime=[&platform=os-arch]  body: .mur.zip → 201 {"artifact_id","sha256"}
//	GET  /v1/artifacts/{name}/{version}[?platform=os-arch]         → 200 zip + x-murmur-sha256
//	GET  /v1/artifacts                                             → 200 [ArtifactMeta]
//
// Errors are JSON {"error": "..."}. Uploaded packages are checked before
// they are stored: the archive must open and its murmur.yaml must name the
// same artifact and version as the request.
func NewServer(dir string, opts ...ServerOption) http.Handler {
	s := &server{maxUpload: DefaultMaxUpload}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.store = NewLocal(dir, s.log)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/artifacts", s.handlePublish)
	mux.HandleFunc("GET /v1/artifacts", s.handleIndex)
	mux.HandleFunc("GET /v1/artifacts/{name}/{version}", s.handleDownload)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
	})
	return s.auth(mux)
}

func (s *server) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.apiKey != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.apiKey)) != 1 {
				s.log.Warn("registry request refused: bad or missing API key", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr)
				writeError(w, http.StatusUnauthorized, "missing or invalid API key")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (s *server) handlePublish(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name, version := q.Get("name"), q.Get("version")
	if name == "" || version == "" || q.Get("runtime") == "" {
		writeError(w, http.StatusBadRequest, "name, version and runtime query parameters are required")
		return
	}
	rt, err := artifact.ParseRuntimeType(q.Get("runtime"))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if artifact.IsReservedVersion(version) {
		writeError(w, http.StatusUnprocessableEntity, fmt.Sprintf("reserved artifact version '%s' is not allowed", version))
		return
	}
	meta := artifact.Meta{Name: name, Version: version, Runtime: rt, Platforms: []artifact.Platform{}, Tags: []string{}}
	for _, ps := range q["platform"] {
		p, err := artifact.ParsePlatform(ps)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		meta.Platforms = append(meta.Platforms, p)
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxUpload))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("package larger than %d bytes", s.maxUpload))
		return
	} else if err != nil {
		writeError(w, http.StatusBadRequest, "reading body: "+err.Error())
		return
	}
	if meta.ArtifactRuntime, err = checkUpload(data, name, version); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.publish.Lock()
	pub, err := s.store.Publish(r.Context(), meta, data)
	s.publish.Unlock()
	switch {
	case errors.Is(err, ErrConflict):
		writeError(w, http.StatusConflict, fmt.Sprintf("artifact %s already exists", meta.ID()))
	case errors.Is(err, ErrInvalidInput):
		writeError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		s.log.Error("publish failed", "artifact", meta.ID(), "err", err)
		writeError(w, http.StatusInternalServerError, "could not store the artifact")
	default:
		s.log.Info("published", "artifact", pub.ArtifactID, "sha256", pub.SHA256, "bytes", len(data))
		writeJSON(w, http.StatusCreated, pub)
	}
}

// checkUpload opens the package and returns its manifest's runtime role.
func checkUpload(data []byte, name, version string) (string, error) {
	pkg, err := artifact.Open(data, artifact.DefaultMaxDecompressedBytes)
	if err != nil {
		return "", err
	}
	m, err := pkg.ParsedManifest()
	if err != nil {
		return "", err
	}
	if m.Name != name || m.Version != version {
		return "", fmt.Errorf("package manifest says %s@%s but the request publishes %s@%s", m.Name, m.Version, name, version)
	}
	return m.Runtime, nil
}

func (s *server) handleDownload(w http.ResponseWriter, r *http.Request) {
	name, version := r.PathValue("name"), r.PathValue("version")
	var p *artifact.Platform
	if ps := r.URL.Query().Get("platform"); ps != "" {
		pp, err := artifact.ParsePlatform(ps)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		p = &pp
	}
	res, err := s.store.Resolve(r.Context(), name, version, p)
	switch {
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, fmt.Sprintf("artifact %s@%s not found", name, version))
		return
	case errors.Is(err, ErrInvalidInput):
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case err != nil:
		s.log.Error("download failed", "artifact", name+"@"+version, "err", err)
		writeError(w, http.StatusInternalServerError, "could not read the artifact")
		return
	}
	// The recorded digest is sent as is: clients verify the bytes against
	// it, so a tampered store is caught on the client, not hidden here.
	if res.Verify() != nil {
		s.log.Warn("stored package does not match its sha256 sidecar", "artifact", name+"@"+version)
	}
	w.Header().Set(SHA256Header, res.SHA256)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", fmt.Sprint(len(res.Data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(res.Data)
	}
}

func (s *server) handleIndex(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.List(r.Context())
	if err != nil {
		s.log.Error("index failed", "err", err)
		writeError(w, http.StatusInternalServerError, "could not list artifacts")
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
