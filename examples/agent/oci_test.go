package agentexample

// The example through a real OCI registry (issue 29 §1): its three
// packages published with mur publish --registry oci://…, installed with
// mur install from registry.remote_url and run; the registry requires a
// password that only the Docker config holds, and no file mur writes may
// hold it. A tag then re-pointed to other bytes is refused under the lock.

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/crane"

	"github.com/mur-go/mur/internal/testing/ociregistry"
)

func TestAgentExampleThroughOCIRegistry(t *testing.T) {
	e := setUp(t)
	reg := ociregistry.Start(t, true)
	docker := reg.DockerConfig(t)
	env := []string{"DOCKER_CONFIG=" + docker}
	url := "oci://" + reg.Host + "/murmur"
	pub := t.TempDir()
	for _, zip := range e.pkgs {
		if out, stderr, code := e.murEnv(pub, env, "publish", zip, "--registry", url); code != 0 {
			t.Fatalf("mur publish %s: exit %d\n%s%s", zip, code, out, stderr)
		}
	}
	// Publishing a version again is refused.
	if _, stderr, code := e.murEnv(pub, env, "publish", e.pkgs[0], "--registry", url); code != 1 || !strings.Contains(stderr, "E-REG-003") {
		t.Fatalf("publishing again: exit %d\n%s", code, stderr)
	}

	// A fresh project whose murmur.yaml names the registry.
	project := filepath.Join(t.TempDir(), "project")
	copyFile(t, "task.md", filepath.Join(project, "task.md"))
	manifest, err := os.ReadFile("murmur.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifest = append(manifest, []byte("\nregistry:\n  remote_url: "+url+"\n")...)
	if err := os.WriteFile(filepath.Join(project, "murmur.yaml"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := e.murEnv(project, env, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s%s", code, out, stderr)
	}
	stdout, stderr, code := e.murEnv(project, env, "run", "-v", "--task", "task.md")
	if code != 0 || !strings.Contains(stdout, "\nstatus:  ok\n"+finalAnswer(t)) {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// The credentials are in no file under the project (its murmur.yaml,
	// murmur.lock, store and session workdir) or mur's HOME.
	secrets := []string{reg.Password, base64.StdEncoding.EncodeToString([]byte(reg.User + ":" + reg.Password))}
	for _, root := range []string{project, e.home} {
		noSecrets(t, root, secrets)
	}

	// Re-point word-stats' tag to other bytes of the same name@version:
	// the install is refused under the lock and changes nothing.
	evil := filepath.Join(t.TempDir(), "word-stats")
	copyFile(t, "tools/word-stats/word-stats.wasm", filepath.Join(evil, "word-stats.wasm"))
	yml, err := os.ReadFile("tools/word-stats/murmur.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(evil, "murmur.yaml"), append(yml, "# other bytes\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	e.mustMur(t, out, "build", evil, "-o", out)
	zips, _ := filepath.Glob(filepath.Join(out, "word-stats-*.mur.zip"))
	if len(zips) != 1 {
		t.Fatalf("mur build made %v", zips)
	}
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(zips[0]), "word-stats-"), ".mur.zip")
	if _, stderr, code := e.murEnv(pub, env, "publish", zips[0], "--registry", "oci://"+reg.Host+"/evil"); code != 0 {
		t.Fatalf("publishing the other bytes: %s", stderr)
	}
	t.Setenv("DOCKER_CONFIG", docker)
	if err := crane.Copy(reg.Host+"/evil/word-stats:"+version, reg.Host+"/murmur/word-stats:"+version, crane.Insecure); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, project)
	if stdout, stderr, code := e.murEnv(project, env, "install"); code != 1 || !strings.Contains(stdout+stderr, "E-REG-005") || !strings.Contains(stdout+stderr, "word-stats") {
		t.Fatalf("install after the tag was re-pointed: exit %d, want 1 with E-REG-005\n%s%s", code, stdout, stderr)
	}
	if after := snapshot(t, project); after != before {
		t.Fatalf("the refused install changed the project:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// noSecrets fails when a file under root holds one of secrets.
func noSecrets(t *testing.T, root string, secrets []string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds the registry credentials", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot lists every file under root with its sha256.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x %s\n", sha256.Sum256(data), path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
