package cli

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/mur-go/mur/internal/store/search"
)

// serveIndex serves body at /artifacts-index.json on loopback and returns
// that URL.
func serveIndex(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/artifacts-index.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/artifacts-index.json"
}

func TestSearchTable(t *testing.T) {
	searchHome(t)
	url := serveIndex(t, `{"schema_version":"1","updated_at":"2026-06-07T00:00:00Z","artifacts":[
		{"name":"murmur-tool-git","version":"1.0.0","runtime":"tool","description":"Structured git interface.","tags":["tool","git"]},
		{"name":"murmur-driver-anthropic","version":"1.10.0","runtime":"driver","description":"Anthropic driver.","tags":["driver"]},
		{"name":"café","version":"2","runtime":"skill","tags":["GIT"]}]}`)
	mur(t, "search", "Git", "--registry", url).want(t, 0, ""+
		"NAME             VERSION  RUNTIME  DESCRIPTION\n"+
		"murmur-tool-git  1.0.0    tool     Structured git interface.\n"+
		"café             2        skill    —\n", "")
	mur(t, "search", "murmur", "--registry", url).want(t, 0, ""+
		"NAME                     VERSION  RUNTIME  DESCRIPTION\n"+
		"murmur-tool-git          1.0.0    tool     Structured git interface.\n"+
		"murmur-driver-anthropic  1.10.0   driver   Anthropic driver.\n", "")
}

// A hostile index chooses every string it holds; none of them may act on
// the terminal or reorder what is read.
func TestSearchHostileIndexPrintsEscaped(t *testing.T) {
	searchHome(t)
	url := serveIndex(t, `{"schema_version":"1","updated_at":"x","artifacts":[
		{"name":"evil\u001b]0;pwned\u0007","version":"1\u001b[2J","runtime":"tool\r\nfake-row","description":"git \u202eexe.txt\u009b31m\u200b","tags":[]}]}`)
	o := mur(t, "search", "git", "--registry", url)
	o.want(t, 0, `evil\x1b]0;pwned\a  1\x1b[2J  tool\r\nfake-row  git \u202eexe.txt\u009b31m\u200b`, "")
	for _, r := range o.stdout {
		if r != '\n' && (unicode.IsControl(r) || unicode.In(r, unicode.Cf)) {
			t.Fatalf("stdout holds %U:\n%q", r, o.stdout)
		}
	}
	if n := strings.Count(o.stdout, "\n"); n != 2 {
		t.Errorf("%d lines, want the header and one row:\n%s", n, o.stdout)
	}
	bad := serveIndex(t, `{"schema_version":"\u001b]0;pwned\u0007","updated_at":"x","artifacts":[]}`)
	o = mur(t, "search", "git", "--registry", bad)
	o.want(t, 1, "", `unsupported artifact index schema version '\x1b]0;pwned\a'`)
	if strings.ContainsRune(o.stderr, 0x1b) {
		t.Errorf("stderr holds an escape: %q", o.stderr)
	}
}

// An index larger than the cap is refused, from a URL (with or without a
// Content-Length) and from a file, and nothing is printed on stdout.
func TestSearchOversizedIndexRefused(t *testing.T) {
	dir := searchHome(t)
	doc := strings.Repeat(" ", search.MaxIndexBytes) + `{"schema_version":"1","updated_at":"x","artifacts":[{"name":"git","version":"1","runtime":"tool"}]}`
	url := serveIndex(t, doc)
	streamed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < len(doc); i += 1 << 20 {
			w.Write([]byte(doc[i:min(i+1<<20, len(doc))]))
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(streamed.Close)
	file := filepath.Join(dir, "big.json")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{url, streamed.URL + "/artifacts-index.json", file} {
		o := mur(t, "search", "git", "--registry", where)
		o.want(t, 1, "", "error[E-IO-003]: artifact index from "+where+" is larger than 16777216 bytes (16 MiB); mur refuses it")
		if o.stdout != "" {
			t.Errorf("%s: stdout %q", where, o.stdout)
		}
	}
}

// An index URL nothing answers at fails and names the URL; so does one
// that answers with an error status.
func TestSearchUnreachableURLNamed(t *testing.T) {
	searchHome(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/artifacts-index.json"
	l.Close()
	mur(t, "search", "git", "--registry", dead).want(t, 1, "", "error[E-IO-003]: failed to fetch artifact index from "+dead+": ")
	missing := strings.TrimSuffix(serveIndex(t, "{}"), "artifacts-index.json") + "other.json"
	mur(t, "search", "git", "--registry", missing).want(t, 1, "", "failed to fetch artifact index from "+missing+": HTTP 404 Not Found")
}

func TestSearchBadIndexFile(t *testing.T) {
	dir := searchHome(t)
	path := filepath.Join(dir, "index.json")
	os.WriteFile(path, []byte(`{"schema_version":"1","updated_at":"x","artifacts":[{"name":"a","name":"b","version":"1","runtime":"tool"}]}`), 0o644)
	mur(t, "search", "a", "--registry", path).want(t, 1, "", "failed to parse artifact index from "+path+`: artifacts[0]: duplicate field "name"`)
	missing := filepath.Join(dir, "none.json")
	mur(t, "search", "a", "--registry", missing).want(t, 1, "", "failed to read artifact index from "+missing+": ")
}

func TestSearchUsage(t *testing.T) {
	dir := searchHome(t)
	idx := writeIndex(t, dir, toolEntry("murmur-tool-git"))
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"search"}, "mur: missing QUERY\n"},
		{[]string{"search", "a", "b"}, `unexpected argument "b"`},
		{[]string{"search", "git", "--limit", "0", "--registry", idx}, "--limit must be at least 1, got 0"},
		{[]string{"search", "git", "--limit", "-3", "--registry", idx}, "--limit must be at least 1, got -3"},
		{[]string{"search", "git", "--limit", "x"}, `invalid argument "x" for "--limit"`},
		{[]string{"search", "git", "--registry", "artifacts-index.json"}, "--registry 'artifacts-index.json' is not 'local', an absolute file path, an http(s) URL or an oci:// registry"},
		{[]string{"search", "git", "--registry", "ftp://example.com/i.json"}, "is not 'local', an absolute file path, an http(s) URL or an oci:// registry"},
	} {
		o := mur(t, c.args...)
		o.want(t, 2, "", c.stderr)
		if !strings.Contains(o.stderr, "Run 'mur search --help' for usage.") || o.stdout != "" {
			t.Errorf("%v: stdout %q, stderr %q", c.args, o.stdout, o.stderr)
		}
	}
	mur(t, "search", "--help").want(t, 0, "mur search editor --registry local", "")
	mur(t, "--help").want(t, 0, `"mur search QUERY"`, "")
}
