package search

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	entries := []Entry{
		{Name: "murmur-tool-git", Description: strp("Structured GIT interface."), Tags: []string{"vcs"}},
		{Name: "murmur-driver-anthropic", Tags: []string{"LLM", "driver"}},
		{Name: "CAFÉ-TOOL"},
		{Name: "murmur-hook-guard"},
	}
	names := func(es []Entry) string {
		var s []string
		for _, e := range es {
			s = append(s, e.Name)
		}
		return strings.Join(s, ",")
	}
	for _, c := range []struct {
		query string
		limit int
		want  string
	}{
		{"git", 10, "murmur-tool-git"},
		{"GIT", 10, "murmur-tool-git"},
		{"structured git", 10, "murmur-tool-git"}, // the description
		{"llm", 10, "murmur-driver-anthropic"},    // a tag
		{"murmur", 10, "murmur-tool-git,murmur-driver-anthropic,murmur-hook-guard"},
		{"murmur", 2, "murmur-tool-git,murmur-driver-anthropic"},
		{"café", 10, ""}, // only A-Z are folded, as by Rust's to_ascii_lowercase
		{"cafÉ", 10, "CAFÉ-TOOL"},
		{"", 10, "murmur-tool-git,murmur-driver-anthropic,CAFÉ-TOOL,murmur-hook-guard"},
		{"nothing", 10, ""},
	} {
		if got := names(Match(entries, c.query, c.limit)); got != c.want {
			t.Errorf("Match(%q, %d) = %s, want %s", c.query, c.limit, got, c.want)
		}
	}
}

func TestParseSource(t *testing.T) {
	for _, c := range []struct {
		value string
		want  Source
		bad   bool
	}{
		{"", Source{URL, DefaultIndexURL}, false},
		{"local", Source{Kind: Local}, false},
		{"/tmp/index.json", Source{File, "/tmp/index.json"}, false},
		{"http://127.0.0.1:7800/artifacts-index.json", Source{URL, "http://127.0.0.1:7800/artifacts-index.json"}, false},
		{"https://example.com/i.json", Source{URL, "https://example.com/i.json"}, false},
		{"index.json", Source{}, true},
		{"./index.json", Source{}, true},
		{"LOCAL", Source{}, true},
		{"ftp://example.com/i.json", Source{}, true},
		{"oci://127.0.0.1:5000/murmur", Source{OCI, "oci://127.0.0.1:5000/murmur"}, false},
		{"OCI://registry.example.com", Source{OCI, "OCI://registry.example.com"}, false},
	} {
		got, err := ParseSource(c.value)
		if c.bad != errors.Is(err, ErrBadSource) || got != c.want {
			t.Errorf("ParseSource(%q) = %+v, %v", c.value, got, err)
		}
	}
}

func TestFetch(t *testing.T) {
	const doc = `{"schema_version":"1","updated_at":"x","artifacts":[]}`
	big := strings.Repeat(" ", MaxIndexBytes) + doc
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.Write([]byte(doc))
		case "/big-declared":
			w.Header().Set("Content-Length", "17000000")
			w.WriteHeader(http.StatusOK)
		case "/big-streamed": // no Content-Length: the cap on reading stops it
			f := w.(http.Flusher)
			for i := 0; i < len(big); i += 1 << 20 {
				w.Write([]byte(big[i:min(i+1<<20, len(big))]))
				f.Flush()
			}
		case "/exact": // the cap itself is allowed
			w.Write([]byte(strings.Repeat(" ", MaxIndexBytes-len(doc)) + doc))
		case "/redirect":
			http.Redirect(w, r, "/ok", http.StatusFound)
		default:
			http.Error(w, "gone", http.StatusNotFound)
		}
	}))
	defer srv.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + closed.Addr().String() + "/artifacts-index.json"
	closed.Close()

	for _, c := range []struct{ url, err string }{
		{srv.URL + "/ok", ""},
		{srv.URL + "/exact", ""},
		{srv.URL + "/redirect", ""},
		{srv.URL + "/missing", "failed to fetch artifact index from " + srv.URL + "/missing: HTTP 404 Not Found"},
		{srv.URL + "/big-declared", "artifact index from " + srv.URL + "/big-declared is larger than 16777216 bytes (16 MiB)"},
		{srv.URL + "/big-streamed", "is larger than 16777216 bytes"},
		{deadURL, "failed to fetch artifact index from " + deadURL + ": "},
	} {
		entries, err := Load(context.Background(), Source{URL, c.url}, func(string) string { return "" })
		if c.err == "" {
			if err != nil || len(entries) != 0 {
				t.Errorf("%s: %v, %v", c.url, entries, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one containing %q", c.url, err, c.err)
		}
	}
}
