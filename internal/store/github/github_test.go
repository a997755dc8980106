package github

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/testing/ghreleases"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const repo = "acme/artifacts"

func pkg(t *testing.T, name, version, extra string) []byte {
	t.Helper()
	return testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: '"+version+"'\nruntime: tool\n", "t.wasm", "\x00asm"+extra)
}

// open is a client of the stand-in with env as the environment.
func open(t *testing.T, s *ghreleases.Server, env map[string]string) *Repo {
	t.Helper()
	if env == nil {
		env = map[string]string{}
	}
	env[APIBaseEnv] = s.URL
	c, err := Open(Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Repo(repo)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func code(err error) diag.Code {
	var e *diag.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestLatestPicksTheHostVariantThenTheGeneric(t *testing.T) {
	s := ghreleases.Start(t)
	host := artifact.CurrentPlatform()
	s.Put(repo, ghreleases.Release{Tag: "v2", Assets: []ghreleases.Asset{
		// Another artifact whose name starts with "tool-", listed first.
		{Name: "tool-extra-1.0.0-" + host + ".mur.zip", Data: pkg(t, "tool-extra", "1.0.0", "host")},
		{Name: "gen-extra-1.0.0.mur.zip", Data: pkg(t, "gen-extra", "1.0.0", "")},
		{Name: "gen-0.2.0.mur.zip", Data: pkg(t, "gen", "0.2.0", "")},
		{Name: "tool-1.0.0-other-arch.mur.zip", Data: pkg(t, "tool", "1.0.0", "other")},
		{Name: "tool.mur.zip", Data: pkg(t, "tool", "1.0.0", "generic")},
		{Name: "tool-1.0.0-" + host + ".mur.zip", Data: pkg(t, "tool", "1.0.0", "host")},
		{Name: "hook.mur.zip", Data: pkg(t, "hook", "0.3.0", "")},
	}}, true)
	r := open(t, s, nil)
	got, err := r.Latest(context.Background(), "tool", host)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "tool" || got.Version != "1.0.0" || got.Platform == nil || got.Platform.String() != host {
		t.Errorf("got %s@%s platform %v", got.Name, got.Version, got.Platform)
	}
	if err := got.Verify(); err != nil {
		t.Error(err)
	}
	got, err = r.Latest(context.Background(), "hook", host)
	if err != nil || got.Version != "0.3.0" || got.Platform != nil {
		t.Errorf("hook: %v %+v", err, got)
	}
	got, err = r.Latest(context.Background(), "gen", host)
	if err != nil || got.Name != "gen" || got.Version != "0.2.0" {
		t.Errorf("gen: %v %+v", err, got)
	}
	elsewhere := "darwin-aarch64"
	if host == elsewhere {
		elsewhere = "linux-x86_64"
	}
	s.Put("acme/native", ghreleases.Release{Tag: "v1", Assets: []ghreleases.Asset{
		{Name: "git-1.0.0-" + elsewhere + ".mur.zip", Data: pkg(t, "git", "1.0.0", "")}}}, true)
	native, _ := r.c.Repo("acme/native")
	if _, err := native.Latest(context.Background(), "git", host); code(err) != "E-REG-001" {
		t.Errorf("another platform's variant: %v", err)
	}
	_, err = r.Latest(context.Background(), "nope", host)
	if code(err) != "E-REG-001" || !errors.Is(err, registry.ErrNotFound) || !strings.Contains(err.Error(), "could not resolve 'nope'\n  github:acme/artifacts — asset not found in latest release 'v2'") {
		t.Errorf("missing: %v", err)
	}
}

func TestReleaseInstallsEveryPackageOfTheHost(t *testing.T) {
	s := ghreleases.Start(t)
	host := artifact.CurrentPlatform()
	s.Put(repo, ghreleases.Release{Tag: "v1.2.0", Assets: []ghreleases.Asset{
		{Name: "a.mur.zip", Data: pkg(t, "a", "1.0.0", "")},
		{Name: "b-2.0.0.mur.zip", Data: pkg(t, "b", "2.0.0", "generic")},
		{Name: "b-2.0.0-" + host + ".mur.zip", Data: pkg(t, "b", "2.0.0", "host")},
		{Name: "b-2.0.0-darwin-aarch64.mur.zip", Data: []byte("never fetched")},
		{Name: "notes.txt", Data: []byte("ignored")},
	}}, false)
	got, err := open(t, s, nil).Release(context.Background(), "v1.2.0", host)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" || got[1].Platform == nil {
		t.Fatalf("got %+v", got)
	}
	for _, q := range s.Requests() {
		if strings.HasSuffix(q.Path, "/assets/4") || strings.HasSuffix(q.Path, "/assets/5") {
			t.Errorf("fetched %s, which is not for this platform or not a package", q.Path)
		}
	}
	if _, err := open(t, s, nil).Release(context.Background(), "v9", host); code(err) != "E-REG-001" {
		t.Errorf("no such release: %v", err)
	}
}

// TestReleaseHeldBytesAreBounded: a release's packages, held together
// until every one is checked, share one package's cap.
func TestReleaseHeldBytesAreBounded(t *testing.T) {
	s := ghreleases.Start(t)
	half := int64(registry.MaxDownloadBytes/2 + 1)
	s.Put(repo, ghreleases.Release{Tag: "v1", Assets: []ghreleases.Asset{
		{Name: "a.mur.zip", Data: pkg(t, "a", "1.0.0", ""), Size: half},
		{Name: "b.mur.zip", Data: pkg(t, "b", "1.0.0", ""), Size: half}}}, false)
	_, err := open(t, s, nil).Release(context.Background(), "v1", "linux-x86_64")
	if code(err) != "E-REG-002" || !strings.Contains(err.Error(), "its packages hold more than the") {
		t.Errorf("got %v", err)
	}
	for _, q := range s.Requests() {
		if strings.Contains(q.Path, "/assets/") {
			t.Errorf("downloaded %s", q.Path)
		}
	}
}

func TestResolveVersionTagThenLatest(t *testing.T) {
	s := ghreleases.Start(t)
	s.Put(repo, ghreleases.Release{Tag: "v0.3.31", Assets: []ghreleases.Asset{
		{Name: "tool-0.3.31.mur.zip", Data: pkg(t, "tool", "0.3.31", "")}}}, false)
	s.Put(repo, ghreleases.Release{Tag: "v0.3.41", Assets: []ghreleases.Asset{
		{Name: "tool-0.3.33-linux-x86_64.mur.zip", Data: pkg(t, "tool", "0.3.33", "native")},
		{Name: "tool-0.3.33.mur.zip", Data: pkg(t, "tool", "0.3.33", "")}}}, true)
	r := open(t, s, nil)
	linux := &artifact.Platform{OS: "linux", Arch: "x86_64"}
	for _, tc := range []struct {
		version  string
		p        *artifact.Platform
		platform bool
		err      string
	}{
		{"0.3.31", linux, false, ""}, // v-prefixed tag, generic fallback
		{"0.3.33", linux, true, ""},  // no such tag: latest's variant
		{"0.3.33", &artifact.Platform{OS: "darwin", Arch: "aarch64"}, false, ""},
		{"0.3.32", linux, false, "no asset for 'tool' v0.3.32 in release '0.3.32' (no such release) or latest 'v0.3.41'"},
	} {
		got, err := r.Resolve(context.Background(), "tool", tc.version, tc.p)
		if tc.err != "" {
			if code(err) != "E-REG-001" || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v", tc.version, err)
			}
			continue
		}
		if err != nil || got.Version != tc.version || (got.Platform != nil) != tc.platform {
			t.Errorf("%s %v: %v %+v", tc.version, tc.p, err, got)
		}
	}
}

// TestHostileReleases: every release a hostile server could send is
// refused before any package bytes are trusted.
func TestHostileReleases(t *testing.T) {
	good := func(t *testing.T) []byte { return pkg(t, "tool", "1.0.0", "") }
	wrong := "sha256:" + strings.Repeat("0", 64)
	for _, tc := range []struct {
		name   string
		assets func(t *testing.T, s *ghreleases.Server) []ghreleases.Asset
		code   diag.Code
		msg    string
	}{
		{"wrong digest", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), Digest: wrong}}
		}, "E-REG-002", "its bytes hash to sha256 "},
		{"malformed digest", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), Digest: "sha256:xyz"}}
		}, "E-REG-002", `digest "sha256:xyz" is not sha256:<64 hex digits>`},
		{"no checksum", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), NoDigest: true}}
		}, "E-REG-002", `the release records no sha256 for it (no "digest" and no tool.mur.zip.sha256 asset)`},
		{"other algorithm only", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), Digest: "sha512:abcd"}}
		}, "E-REG-002", "the release records no sha256"},
		{"sidecar disagrees", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t)},
				{Name: "tool.mur.zip.sha256", Data: []byte(strings.Repeat("a", 64) + "  tool.mur.zip\n")}}
		}, "E-REG-002", "disagree"},
		{"sidecar alone, wrong", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), NoDigest: true},
				{Name: "tool.mur.zip.sha256", Data: []byte(strings.Repeat("a", 64) + "\n")}}
		}, "E-REG-002", "its bytes hash to sha256 "},
		{"sidecar names another file", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), NoDigest: true},
				{Name: "tool.mur.zip.sha256", Data: []byte(strings.Repeat("a", 64) + "  other.mur.zip\n")}}
		}, "E-REG-002", `the checksum file names "other.mur.zip"`},
		{"oversized sidecar", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), NoDigest: true},
				{Name: "tool.mur.zip.sha256", Data: []byte(strings.Repeat("a", 64) + strings.Repeat(" ", maxChecksumBytes))}}
		}, "E-REG-002", "more than the release announces"},
		{"announced size over the cap", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), Size: registry.MaxDownloadBytes + 1}}
		}, "E-REG-002", "more than the"},
		{"more bytes than announced", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), Size: 10}}
		}, "E-REG-002", "it holds more than the release announces"},
		{"traversal name", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "../../tool.mur.zip", Data: good(t)}, {Name: "tool.mur.zip", Data: good(t)}}
		}, "E-REG-002", `asset name "../../tool.mur.zip" is not a file name`},
		{"backslash name", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: `..\tool.mur.zip`, Data: good(t)}}
		}, "E-REG-002", "is not a file name"},
		{"dot-dot name", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "..", Data: good(t)}, {Name: "tool.mur.zip", Data: good(t)}}
		}, "E-REG-002", `asset name ".." is not a file name`},
		{"control character", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool\x1b[2J.mur.zip", Data: good(t)}}
		}, "E-REG-002", "is not a file name"},
		{"two assets of one name", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t)}, {Name: "tool.mur.zip", Data: good(t)}}
		}, "E-REG-002", `two assets are named "tool.mur.zip"`},
		{"another package under the name", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: pkg(t, "openai-compatible", "1.0.0", "")}}
		}, "E-REG-002", `it holds the package "openai-compatible", not "tool"`},
		{"package name walks out of the store", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: pkg(t, "../../evil", "1.0.0", "")}}
		}, "E-REG-002", `it holds a package named "../../evil", which is no artifact name`},
		{"version walks out of the store", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: pkg(t, "tool", "../../1", "")}}
		}, "E-REG-002", `it holds a package of version "../../1", which is no version`},
		{"not a package", func(t *testing.T, _ *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: []byte("<html>")}}
		}, "E-IO-003", "asset tool.mur.zip from github:acme/artifacts is not a readable package"},
		{"listed but gone", func(t *testing.T, s *ghreleases.Server) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "tool.mur.zip", Data: good(t), RedirectTo: s.URL + "/gone"}}
		}, "E-REG-002", "downloading it answers 404"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ghreleases.Start(t)
			s.Put(repo, ghreleases.Release{Tag: "v1", Assets: tc.assets(t, s)}, true)
			got, err := open(t, s, nil).Latest(context.Background(), "tool", "linux-x86_64")
			if code(err) != tc.code || !strings.Contains(diag.Render(err), tc.msg) {
				t.Fatalf("got %v, %s; want %s containing %q", got, diag.Render(err), tc.code, tc.msg)
			}
		})
	}
}

func TestHostileReleaseJSON(t *testing.T) {
	for _, tc := range []struct{ body, msg string }{
		{`<html>`, "invalid release JSON"},
		{`{"tag_name":"v1","assets":[{"name":"a.mur.zip"}]}`, "asset 0 has no id or no name"},
		{`{"tag_name":"v1","assets":[]} {}`, "data after the release object"},
		{`{"tag_name":"v1\u001b]0;x\u0007","assets":[]}`, "is not printable text"},
		{`{"tag_name":"v1","assets":[{"id":1,"name":"a.mur.zip","size":-1}]}`, "negative size"},
		{`{"tag_name":"v1","assets":[{"id":1,"name":"a/b.mur.zip"}]}`, "is not a file name"},
	} {
		s := ghreleases.Start(t)
		s.Raw("/repos/acme/artifacts/releases/latest", tc.body)
		_, err := open(t, s, nil).Latest(context.Background(), "a", "linux-x86_64")
		if code(err) != "E-REG-002" || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v", tc.body, err)
		}
	}
	s := ghreleases.Start(t)
	s.Raw("/repos/acme/artifacts/releases/latest", `{"tag_name":"v1","assets":[`+strings.Repeat(`{"id":1,"name":"x"},`, maxReleaseBytes/20)+`]}`)
	if _, err := open(t, s, nil).Latest(context.Background(), "a", "linux-x86_64"); code(err) != "E-REG-002" || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized release: %v", err)
	}
}

// TestTokenStaysWithTheAPI: GITHUB_TOKEN goes to the API base's origin
// and to nothing a download is redirected to, even on the same host.
func TestTokenStaysWithTheAPI(t *testing.T) {
	cdn := ghreleases.Start(t)
	api := ghreleases.Start(t)
	data := pkg(t, "tool", "1.0.0", "")
	cdn.Blob("/cdn/tool.mur.zip", data)
	api.Blob("/same/tool.mur.zip", data)
	api.Put(repo, ghreleases.Release{Tag: "v1", Assets: []ghreleases.Asset{
		{Name: "tool.mur.zip", Data: data, RedirectTo: cdn.URL + "/cdn/tool.mur.zip"},
		{Name: "hook.mur.zip", Data: pkg(t, "hook", "1.0.0", ""), RedirectTo: api.URL + "/same/tool.mur.zip"},
	}}, true)
	r := open(t, api, map[string]string{TokenEnv: " secret-token \n"})
	if _, err := r.Latest(context.Background(), "tool", "linux-x86_64"); err != nil {
		t.Fatal(err)
	}
	for _, q := range api.Requests() {
		if q.Authorization != "Bearer secret-token" {
			t.Errorf("API request %s carried %q", q.Path, q.Authorization)
		}
	}
	cdnReqs := cdn.Requests()
	if len(cdnReqs) != 1 || cdnReqs[0].Authorization != "" || cdnReqs[0].Accept != "application/octet-stream" {
		t.Errorf("CDN requests: %+v", cdnReqs)
	}
	// A redirect back to the API's own origin keeps it (the bytes are
	// then not hook's, which the digest check refuses).
	_, err := r.Latest(context.Background(), "hook", "linux-x86_64")
	if code(err) != "E-REG-002" {
		t.Errorf("hook: %v", err)
	}
	reqs := api.Requests()
	if last := reqs[len(reqs)-1]; last.Path != "/same/tool.mur.zip" || last.Authorization != "Bearer secret-token" {
		t.Errorf("same-origin redirect: %+v", last)
	}
}

func TestRedirectLoopIsBounded(t *testing.T) {
	s := ghreleases.Start(t)
	s.Put(repo, ghreleases.Release{Tag: "v1", Assets: []ghreleases.Asset{
		{Name: "tool.mur.zip", Data: pkg(t, "tool", "1.0.0", ""), RedirectTo: s.URL + "/repos/acme/artifacts/releases/assets/1"}}}, true)
	_, err := open(t, s, nil).Latest(context.Background(), "tool", "linux-x86_64")
	if code(err) != "E-IO-003" || !strings.Contains(err.Error(), "more than 5 redirects") {
		t.Errorf("got %v", err)
	}
}

func TestOpenRefusesABaseThatWouldExposeTheToken(t *testing.T) {
	for _, base := range []string{"http://api.example.com", "ftp://x", "https://u:p@api.example.com", "https://api.example.com?x=1", "://"} {
		_, err := Open(Options{Getenv: func(k string) string { return map[string]string{APIBaseEnv: base}[k] }})
		if code(err) != "E-IO-003" || !strings.Contains(err.Error(), "invalid MUR_GITHUB_API_BASE") {
			t.Errorf("%s: %v", base, err)
		}
	}
	for _, base := range []string{"", "https://ghe.example.com/api/v3/", "http://127.0.0.1:8080", "http://[::1]:1", "http://localhost:9"} {
		if _, err := Open(Options{Getenv: func(k string) string { return map[string]string{APIBaseEnv: base}[k] }}); err != nil {
			t.Errorf("%s: %v", base, err)
		}
	}
	c, _ := Open(Options{})
	for _, bad := range []string{"acme", "/x", "acme/", "-a/b", "a/..", "a/b/c", "a b/c", strings.Repeat("a", 40) + "/b"} {
		if _, err := c.Repo(bad); code(err) != "E-IO-003" {
			t.Errorf("Repo(%q): %v", bad, err)
		}
	}
}

// TestTagStaysOneSegment: a tag cannot walk the API's path.
func TestTagStaysOneSegment(t *testing.T) {
	s := ghreleases.Start(t)
	r := open(t, s, nil)
	for _, tag := range []string{"../../../orgs/x", "a/b", "v1?x=y#z"} {
		if _, err := r.Release(context.Background(), tag, "linux-x86_64"); code(err) != "E-REG-001" {
			t.Errorf("%s: %v", tag, err)
		}
	}
	want := []string{"/repos/acme/artifacts/releases/tags/..%2F..%2F..%2Forgs%2Fx", "/repos/acme/artifacts/releases/tags/a%2Fb", "/repos/acme/artifacts/releases/tags/v1%3Fx=y%23z"}
	got := s.Requests()
	for i, w := range want {
		if i >= len(got) || got[i].Path != w {
			t.Errorf("request %d: %+v, want %s", i, got, w)
		}
	}
	for _, tag := range []string{"..", ".", " ", "v\x00"} {
		if _, err := r.Release(context.Background(), tag, "linux-x86_64"); code(err) != "E-REG-001" || !strings.Contains(err.Error(), "invalid release tag") {
			t.Errorf("%q: %v", tag, err)
		}
	}
}

// TestAPIErrorsSayWhatGitHubSaid: a refusal of the API is E-IO-003 with
// GitHub's message when it is printable text.
func TestAPIErrorsSayWhatGitHubSaid(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"message":"API rate limit exceeded\u001b[31m"}`, "failed: HTTP 403\n  hint: check the network; set GITHUB_TOKEN"},
		{`{"message":"API rate limit exceeded"}`, `failed: HTTP 403: "API rate limit exceeded"`},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(tc.body))
		}))
		t.Cleanup(srv.Close)
		c, err := Open(Options{Getenv: func(k string) string { return map[string]string{APIBaseEnv: srv.URL}[k] }})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := c.Repo(repo)
		_, err = r.Latest(context.Background(), "tool", "linux-x86_64")
		if code(err) != "E-IO-003" || !strings.Contains(diag.Render(err), "error[E-IO-003]: reading release latest from github:acme/artifacts "+tc.want) {
			t.Errorf("got %s", diag.Render(err))
		}
	}
}

// TestRedirectNeverStepsDownToPlainHTTP: from https, a redirect may not
// go to plain http off loopback (a TLS stand-in would need the process's
// roots changed, so the policy is tested as the client calls it).
func TestRedirectNeverStepsDownToPlainHTTP(t *testing.T) {
	req := func(u string) *http.Request {
		r, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	from := []*http.Request{req("https://api.github.com/repos/a/b/releases/assets/1")}
	for u, ok := range map[string]bool{
		"https://objects.githubusercontent.com/x": true,
		"http://objects.githubusercontent.com/x":  false,
		"http://127.0.0.1:9/x":                    true,
	} {
		if err := checkRedirect(req(u), from); (err == nil) != ok {
			t.Errorf("%s: %v", u, err)
		}
	}
}
