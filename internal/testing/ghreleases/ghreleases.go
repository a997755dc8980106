// Package ghreleases is a loopback stand-in of GitHub's releases API for
// tests: the release JSON of /repos/OWNER/REPO/releases/latest and
// /releases/tags/TAG, and each asset at /releases/assets/ID (answered as
// JSON unless asked for application/octet-stream, as GitHub does), served
// by a real net/http server that records every request it gets.
package ghreleases

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Asset is one release asset as the stand-in serves it.
type Asset struct {
	Name string
	Data []byte
	// Digest is the "digest" field; "" is "sha256:" of Data unless
	// NoDigest leaves the field null.
	Digest   string
	NoDigest bool
	// Size is the announced size; 0 announces len(Data).
	Size int64
	// RedirectTo, when set, is where the asset endpoint redirects (302),
	// as GitHub sends downloads to its CDN.
	RedirectTo string
}

// Release is one release.
type Release struct {
	Tag    string
	Assets []Asset
}

// Request is one request the stand-in got.
type Request struct {
	Path, Accept, Authorization string
}

// Server is a running stand-in.
type Server struct {
	// URL is the API base, http://127.0.0.1:PORT.
	URL string

	mu       sync.Mutex
	releases map[string]map[string]*Release // "owner/repo" → tag → release
	latest   map[string]string              // "owner/repo" → tag
	assets   map[uint64]*Asset
	blobs    map[string][]byte
	raw      map[string]string // path → a raw body served as JSON
	requests []Request
}

// Start runs a stand-in until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{releases: map[string]map[string]*Release{}, latest: map[string]string{},
		assets: map[uint64]*Asset{}, blobs: map[string][]byte{}, raw: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Put adds (or replaces) a release of repo ("owner/repo"); latest makes
// it what releases/latest answers.
func (s *Server) Put(repo string, r Release, latest bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.releases[repo] == nil {
		s.releases[repo] = map[string]*Release{}
	}
	s.releases[repo][r.Tag] = &r
	if latest {
		s.latest[repo] = r.Tag
	}
}

// Blob serves data at path (a CDN's download URL).
func (s *Server) Blob(path string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blobs[path] = data
}

// Raw serves body verbatim as the JSON answer of path.
func (s *Server) Raw(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw[path] = body
}

// Requests are the requests so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Path: r.URL.EscapedPath(), Accept: r.Header.Get("Accept"), Authorization: r.Header.Get("Authorization")})
	if body, ok := s.raw[r.URL.Path]; ok {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
		return
	}
	if data, ok := s.blobs[r.URL.Path]; ok {
		w.Write(data)
		return
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if len(parts) < 5 || parts[0] != "repos" || parts[3] != "releases" {
		notFound(w)
		return
	}
	repo := parts[1] + "/" + parts[2]
	switch {
	case len(parts) == 5 && parts[4] == "latest":
		s.release(w, repo, s.latest[repo])
	case len(parts) == 6 && parts[4] == "tags":
		s.release(w, repo, parts[5])
	case len(parts) == 6 && parts[4] == "assets":
		s.asset(w, r, parts[5])
	default:
		notFound(w)
	}
}

func (s *Server) release(w http.ResponseWriter, repo, tag string) {
	rel, ok := s.releases[repo][tag]
	if !ok {
		notFound(w)
		return
	}
	type asset struct {
		ID     uint64  `json:"id"`
		Name   string  `json:"name"`
		Size   int64   `json:"size"`
		Digest *string `json:"digest"`
		URL    string  `json:"browser_download_url"`
	}
	doc := struct {
		Tag    string  `json:"tag_name"`
		Assets []asset `json:"assets"`
	}{Tag: rel.Tag, Assets: []asset{}}
	for i := range rel.Assets {
		a := &rel.Assets[i]
		id := s.id(a)
		out := asset{ID: id, Name: a.Name, Size: a.Size, URL: s.URL + "/download/" + a.Name}
		if out.Size == 0 {
			out.Size = int64(len(a.Data))
		}
		if !a.NoDigest {
			d := a.Digest
			if d == "" {
				sum := sha256.Sum256(a.Data)
				d = "sha256:" + hex.EncodeToString(sum[:])
			}
			out.Digest = &d
		}
		doc.Assets = append(doc.Assets, out)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(doc)
}

// id gives each asset a stable id the first time a release lists it.
func (s *Server) id(a *Asset) uint64 {
	for id, b := range s.assets {
		if b == a {
			return id
		}
	}
	id := uint64(len(s.assets) + 1)
	s.assets[id] = a
	return id
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request, id string) {
	n, err := strconv.ParseUint(id, 10, 64)
	a, ok := s.assets[n]
	if err != nil || !ok {
		notFound(w)
		return
	}
	if r.Header.Get("Accept") != "application/octet-stream" {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": n, "name": a.Name})
		return
	}
	if a.RedirectTo != "" {
		http.Redirect(w, r, a.RedirectTo, http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(a.Data)
}

func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte(`{"message":"Not Found"}`))
}
