package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/github"
	"github.com/mur-go/mur/internal/testing/ghreleases"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// toolPackage is a wasm tool package name@version; extra varies its bytes.
func toolPackage(t *testing.T, name, version, extra string) []byte {
	t.Helper()
	return testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: \""+version+"\"\nruntime: tool\nrequires_files: [tool.wasm]\n",
		"tool.wasm", "\x00asm\x01\x00\x00\x00"+extra)
}

// releases starts the stand-in of GitHub's releases API and points mur at it.
func releases(t *testing.T) *ghreleases.Server {
	t.Helper()
	s := ghreleases.Start(t)
	t.Setenv(github.APIBaseEnv, s.URL)
	return s
}

// snapshot is every file under dir with its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

func sameFiles(t *testing.T, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("files changed: %d before, %d after", len(before), len(after))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed", p)
		}
	}
}

// TestInstallBareName is Murmur's `mur install <name>`: the default
// source's latest release, stored in the project and pinned; the same
// install again changes nothing; a re-pointed asset of that version, or a
// newer version, is E-REG-005 with nothing changed.
func TestInstallBareName(t *testing.T) {
	_, capsule := sandbox(t)
	s := releases(t)
	v1 := toolPackage(t, "hello-tool", "1.0.0", "")
	s.Put(github.DefaultRepo, ghreleases.Release{Tag: "v0.3.41", Assets: []ghreleases.Asset{
		{Name: "hello-tool.mur.zip", Data: v1}, {Name: "other.mur.zip", Data: toolPackage(t, "other", "1.0.0", "")}}}, true)

	stored := filepath.Join(capsule, ".murmur", "artifacts", "hello-tool", "1.0.0", "hello-tool-1.0.0.mur.zip")
	mur(t, "install", "hello-tool").want(t, 0,
		"Installed hello-tool@1.0.0 from github:murmur-nexus/default-artifacts → "+stored+"\n  pinned hello-tool in "+filepath.Join(capsule, lockfile.FileName)+" (sha256 "+artifact.SHA256Hex(v1)[:12]+")", "")
	if data, _ := os.ReadFile(stored); !bytes.Equal(data, v1) {
		t.Error("stored bytes differ from the release asset")
	}
	if e, ok := readLock(t, capsule).Find("hello-tool"); !ok || e.ResolvedVersion != "1.0.0" || e.SHA256.Wasm != artifact.SHA256Hex(v1) {
		t.Errorf("lock entry %+v", e)
	}
	mur(t, "install", "hello-tool").want(t, 0, "Installed hello-tool@1.0.0", "")
	mur(t, "list").want(t, 0, "hello-tool  1.0.0    tool", "")

	before := snapshot(t, capsule)
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"re-pointed asset", toolPackage(t, "hello-tool", "1.0.0", "evil"), "pinned hello-tool@1.0.0 (sha256 " + artifact.SHA256Hex(v1)},
		{"newer version", toolPackage(t, "hello-tool", "1.1.0", ""), "pinned hello-tool@1.0.0"},
	} {
		s.Put(github.DefaultRepo, ghreleases.Release{Tag: "v0.3.42", Assets: []ghreleases.Asset{{Name: "hello-tool.mur.zip", Data: tc.data}}}, true)
		o := mur(t, "install", "hello-tool")
		o.want(t, 1, "", "error[E-REG-005]: murmur.lock conflict for 'hello-tool'")
		if !strings.Contains(o.stderr, tc.msg) {
			t.Errorf("%s: %s", tc.name, o.stderr)
		}
		sameFiles(t, before, snapshot(t, capsule))
	}
}

// TestInstallGitHubRef is `mur install github:OWNER/REPO@TAG`: every
// package of the release for this platform, each pinned; -g stores
// into the global store and pins nothing.
func TestInstallGitHubRef(t *testing.T) {
	home, capsule := sandbox(t)
	s := releases(t)
	host := artifact.CurrentPlatform()
	s.Put("acme/artifacts", ghreleases.Release{Tag: "v1.2.0", Assets: []ghreleases.Asset{
		{Name: "a-1.0.0.mur.zip", Data: toolPackage(t, "a", "1.0.0", "")},
		{Name: "b-2.0.0-" + host + ".mur.zip", Data: toolPackage(t, "b", "2.0.0", "host")},
		{Name: "b-2.0.0-elsewhere-arch.mur.zip", Data: toolPackage(t, "b", "2.0.0", "elsewhere")},
		{Name: "b-2.0.0-darwin-aarch64.mur.zip", Data: []byte("not for this platform")},
		{Name: "checksums.txt", Data: []byte("ignored")},
	}}, false)
	o := mur(t, "install", "github:acme/artifacts@v1.2.0")
	o.want(t, 0, "Installed a@1.0.0 from github:acme/artifacts → ", "")
	if host != "darwin-aarch64" && !strings.Contains(o.stdout, "Installed b@2.0.0 from github:acme/artifacts → "+filepath.Join(capsule, ".murmur", "artifacts", "b", "2.0.0", "b-2.0.0-"+host+".mur.zip")) {
		t.Errorf("stdout: %s", o.stdout)
	}
	l := readLock(t, capsule)
	if len(l.Artifacts) != 2 {
		t.Errorf("lock: %+v", l.Artifacts)
	}
	mur(t, "install", "-g", "github:acme/artifacts@v1.2.0").want(t, 0, "Installed a@1.0.0 from github:acme/artifacts → "+filepath.Join(home, ".murmur", "artifacts", "a", "1.0.0"), "")
	// One bad package of a release: none of it is stored.
	s.Put("acme/artifacts", ghreleases.Release{Tag: "v2", Assets: []ghreleases.Asset{
		{Name: "c-1.0.0.mur.zip", Data: toolPackage(t, "c", "1.0.0", "")},
		{Name: "d-1.0.0.mur.zip", Data: toolPackage(t, "../d", "1.0.0", "")},
	}}, false)
	before := snapshot(t, capsule)
	mur(t, "install", "github:acme/artifacts@v2").want(t, 1, "", `error[E-REG-002]: refused d-1.0.0.mur.zip from github:acme/artifacts: it holds a package named "../d", which is no artifact name`)
	sameFiles(t, before, snapshot(t, capsule))
	mur(t, "install", "github:acme/artifacts@v9").want(t, 1, "", "error[E-REG-001]: could not resolve 'github:acme/artifacts@v9'\n  github:acme/artifacts — release tags/v9 not found")
}

// TestInstallFromHostileRelease: a release whose asset is not what it
// records, records nothing, or hides behind a name that is not a file
// name is refused, and nothing is written: no store, no lock.
func TestInstallFromHostileRelease(t *testing.T) {
	pkg := func(t *testing.T) []byte { return toolPackage(t, "hello-tool", "1.0.0", "") }
	for _, tc := range []struct {
		name   string
		assets func(t *testing.T) []ghreleases.Asset
		stderr string
	}{
		{"wrong checksum", func(t *testing.T) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "hello-tool.mur.zip", Data: pkg(t), Digest: "sha256:" + strings.Repeat("0", 64)}}
		}, "error[E-REG-002]: refused hello-tool.mur.zip from github:murmur-nexus/default-artifacts: its bytes hash to sha256 "},
		{"missing checksum", func(t *testing.T) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "hello-tool.mur.zip", Data: pkg(t), NoDigest: true}}
		}, "error[E-REG-002]: refused hello-tool.mur.zip from github:murmur-nexus/default-artifacts: the release records no sha256"},
		{"oversized asset", func(t *testing.T) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "hello-tool.mur.zip", Data: pkg(t), Size: 1 << 40}}
		}, "error[E-REG-002]: refused hello-tool.mur.zip from github:murmur-nexus/default-artifacts: it is 1099511627776 bytes, more than the "},
		{"path traversal", func(t *testing.T) []ghreleases.Asset {
			return []ghreleases.Asset{{Name: "../../.murmur/artifacts/hello-tool.mur.zip", Data: pkg(t)}, {Name: "hello-tool.mur.zip", Data: pkg(t)}}
		}, `error[E-REG-002]: refused release latest from github:murmur-nexus/default-artifacts: asset name "../../.murmur/artifacts/hello-tool.mur.zip" is not a file name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, capsule := sandbox(t)
			s := releases(t)
			s.Put(github.DefaultRepo, ghreleases.Release{Tag: "v1", Assets: tc.assets(t)}, true)
			before, beforeHome := snapshot(t, capsule), snapshot(t, home)
			mur(t, "install", "hello-tool").want(t, 1, "", tc.stderr)
			sameFiles(t, before, snapshot(t, capsule))
			sameFiles(t, beforeHome, snapshot(t, home))
		})
	}
}

// TestInstallAllPlatforms is Murmur's --all-platforms NAME@VERSION: each
// platform it ships, from the release tagged vVERSION or the latest,
// into the global store, unpinned.
func TestInstallAllPlatforms(t *testing.T) {
	home, capsule := sandbox(t)
	s := releases(t)
	linux := toolPackage(t, "git-tool", "0.4.0", "linux")
	generic := toolPackage(t, "git-tool", "0.4.0", "generic")
	s.Put(github.DefaultRepo, ghreleases.Release{Tag: "v0.4.0", Assets: []ghreleases.Asset{
		{Name: "git-tool-0.4.0-linux-x86_64.mur.zip", Data: linux},
		{Name: "git-tool-0.4.0.mur.zip", Data: generic}}}, false)
	s.Put(github.DefaultRepo, ghreleases.Release{Tag: "v9", Assets: []ghreleases.Asset{}}, true)
	store := filepath.Join(home, ".murmur", "artifacts", "git-tool", "0.4.0")
	mur(t, "install", "--all-platforms", "git-tool@0.4.0").want(t, 0,
		"Installed git-tool@0.4.0 (linux-x86_64) → "+filepath.Join(store, "git-tool-0.4.0-linux-x86_64.mur.zip")+"\n"+
			"Installed git-tool@0.4.0 (darwin-aarch64, generic package) → "+filepath.Join(store, "git-tool-0.4.0.mur.zip")+"\n", "")
	if data, _ := os.ReadFile(filepath.Join(store, "git-tool-0.4.0-linux-x86_64.mur.zip")); !bytes.Equal(data, linux) {
		t.Error("linux variant differs")
	}
	if _, err := os.Stat(filepath.Join(capsule, lockfile.FileName)); err == nil {
		t.Error("--all-platforms pinned")
	}
	o := mur(t, "install", "--all-platforms", "git-tool@0.5.0")
	o.want(t, 1, "", "warning: could not install git-tool@0.5.0 for linux-x86_64: error[E-REG-001]: could not resolve 'git-tool@0.5.0 (platform: linux-x86_64)'")
	o.want(t, 1, "", "error[E-REG-001]: artifact git-tool@0.5.0 not found in registry")

	s.Put(github.DefaultRepo, ghreleases.Release{Tag: "v0.6.0", Assets: []ghreleases.Asset{
		{Name: "git-tool-0.6.0-linux-x86_64.mur.zip", Data: linux},
		{Name: "git-tool-0.6.0-darwin-aarch64.mur.zip", Data: toolPackage(t, "git-tool", "0.6.0", "")}}}, false)
	o = mur(t, "install", "--all-platforms", "git-tool@0.6.0")
	o.want(t, 1, "Installed git-tool@0.6.0 (darwin-aarch64)", "could not install git-tool@0.6.0 for linux-x86_64:\nerror[E-REG-002]: refused git-tool-0.6.0-linux-x86_64.mur.zip from github:murmur-nexus/default-artifacts: it holds git-tool@0.4.0, not version 0.6.0")
}

// TestInstallTokenNeverLeavesTheAPI: GITHUB_TOKEN reaches the API base and
// not the host a download is redirected to.
func TestInstallTokenNeverLeavesTheAPI(t *testing.T) {
	_, _ = sandbox(t)
	s := releases(t)
	cdn := ghreleases.Start(t)
	t.Setenv(github.TokenEnv, "ghp_secret")
	data := toolPackage(t, "hello-tool", "1.0.0", "")
	cdn.Blob("/objects/hello-tool", data)
	s.Put(github.DefaultRepo, ghreleases.Release{Tag: "v1", Assets: []ghreleases.Asset{
		{Name: "hello-tool.mur.zip", Data: data, RedirectTo: cdn.URL + "/objects/hello-tool"}}}, true)
	mur(t, "install", "hello-tool").want(t, 0, "Installed hello-tool@1.0.0", "")
	for _, q := range s.Requests() {
		if q.Authorization != "Bearer ghp_secret" {
			t.Errorf("API request %s: %q", q.Path, q.Authorization)
		}
	}
	if r := cdn.Requests(); len(r) != 1 || r[0].Authorization != "" {
		t.Errorf("CDN requests %+v", r)
	}
}
