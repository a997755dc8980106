package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/github"
	"github.com/mur-go/mur/internal/testing/ghreleases"
)

// The same attacks through the real mur binary: a hostile release (its
// asset's bytes not what the release records) is refused with nothing
// written, and GITHUB_TOKEN reaches the API and never the host a
// download is redirected to.
func TestInstallFromGitHubThroughTheBinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mur")
	build := exec.Command("go", "build", "-o", bin, "github.com/mur-go/mur/cmd/mur")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home, capsule := sandbox(t)
	api, cdn := ghreleases.Start(t), ghreleases.Start(t)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = capsule
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "MUR_CACHE_DIR=" + filepath.Join(home, "cache"),
			github.APIBaseEnv + "=" + api.URL, github.TokenEnv + "=ghp_secret"}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	good := toolPackage(t, "hello-tool", "1.0.0", "")

	api.Put(github.DefaultRepo, ghreleases.Release{Tag: "v1", Assets: []ghreleases.Asset{
		{Name: "hello-tool.mur.zip", Data: good, Digest: "sha256:" + strings.Repeat("0", 64)}}}, true)
	before, beforeHome := snapshot(t, capsule), snapshot(t, home)
	out, err := run("install", "hello-tool")
	if err == nil || !strings.Contains(out, "error[E-REG-002]: refused hello-tool.mur.zip") {
		t.Fatalf("a release whose asset is not what it records: %v\n%s", err, out)
	}
	sameFiles(t, before, snapshot(t, capsule))
	sameFiles(t, beforeHome, snapshot(t, home))

	cdn.Blob("/objects/hello-tool", good)
	api.Put(github.DefaultRepo, ghreleases.Release{Tag: "v2", Assets: []ghreleases.Asset{
		{Name: "hello-tool.mur.zip", Data: good, RedirectTo: cdn.URL + "/objects/hello-tool"}}}, true)
	if out, err := run("install", "hello-tool"); err != nil || !strings.Contains(out, "Installed hello-tool@1.0.0") {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(capsule, lockfile.FileName)); err != nil {
		t.Errorf("not pinned: %v", err)
	}
	for _, q := range api.Requests() {
		if q.Authorization != "Bearer ghp_secret" {
			t.Errorf("API request %s carried %q", q.Path, q.Authorization)
		}
	}
	if r := cdn.Requests(); len(r) != 1 || r[0].Authorization != "" {
		t.Errorf("the CDN's requests %+v: the token went where the download was redirected", r)
	}
}
