// Package ociregistry starts a real OCI registry for tests: Debian's
// docker-registry (CNCF distribution 2.8) on loopback, optionally with
// htpasswd authentication, storing into a test's temporary directory.
package ociregistry

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Binary is where Debian's docker-registry package installs the registry.
const Binary = "/usr/bin/docker-registry"

// Registry is one running registry.
type Registry struct {
	// Host is 127.0.0.1:PORT.
	Host string
	// Root is the storage directory (blobs under docker/registry/v2).
	Root string
	// User and Password are the htpasswd credentials, empty without auth.
	User, Password string
}

// Start runs a registry until the test ends; with auth, it accepts only
// User/Password. distribution cannot listen on port 0, so a free port is
// found by listening on it and closing; if another process takes it in
// between, the registry exits and Start tries another port.
func Start(t testing.TB, auth bool) *Registry {
	t.Helper()
	if _, err := os.Stat(Binary); err != nil {
		t.Fatalf("%s is missing: install the Debian package docker-registry (.ci/run does): %v", Binary, err)
	}
	dir := t.TempDir()
	r := &Registry{Root: filepath.Join(dir, "storage")}
	htpasswd := ""
	if auth {
		r.User, r.Password = "murtest", "s3cret-"+strconv.FormatInt(time.Now().UnixNano(), 36)
		hash, err := bcrypt.GenerateFromPassword([]byte(r.Password), bcrypt.MinCost)
		if err != nil {
			t.Fatal(err)
		}
		htpasswd = filepath.Join(dir, "htpasswd")
		if err := os.WriteFile(htpasswd, []byte(r.User+":"+string(hash)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var last string
	for range 5 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		r.Host = "127.0.0.1:" + strconv.Itoa(port)
		cfg := filepath.Join(dir, "config.yml")
		if err := os.WriteFile(cfg, []byte(config(r.Root, r.Host, htpasswd)), 0o600); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "registry.log")
		log, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(Binary, "serve", cfg)
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting %s: %v", Binary, err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait(); log.Close() }()
		err = waitReady(r.Host, exited)
		if err == nil {
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-exited
			})
			return r
		}
		_ = cmd.Process.Kill()
		<-exited
		b, _ := os.ReadFile(out)
		last = fmt.Sprintf("%v\n%s", err, b)
	}
	t.Fatalf("docker-registry did not start: %s", last)
	return nil
}

func config(root, addr, htpasswd string) string {
	c := fmt.Sprintf("version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: %s\n  delete:\n    enabled: true\nhttp:\n  addr: %s\n", root, addr)
	if htpasswd != "" {
		c += fmt.Sprintf("auth:\n  htpasswd:\n    realm: mur-test\n    path: %s\n", htpasswd)
	}
	return c
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls GET /v2/ until the registry answers (200, or 401 with
// auth), the process exits, or 200 attempts (about 10 s) pass.
func waitReady(host string, exited <-chan error) error {
	c := &http.Client{Timeout: time.Second}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for range 200 {
		resp, err := c.Get("http://" + host + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusUnauthorized {
				return nil
			}
		}
		select {
		case err := <-exited:
			return fmt.Errorf("docker-registry exited: %v", err)
		case <-tick.C:
		}
	}
	return errors.New("docker-registry did not answer /v2/ in time")
}

// DockerConfig writes a Docker config directory holding r's credentials
// (empty auths without auth) and returns it, for DOCKER_CONFIG.
func (r *Registry) DockerConfig(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	auths := map[string]any{}
	if r.User != "" {
		auths[r.Host] = map[string]string{"auth": base64.StdEncoding.EncodeToString([]byte(r.User + ":" + r.Password))}
	}
	b, err := json.Marshal(map[string]any{"auths": auths})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// BlobPath is where the registry stores the blob with hex sha256 hex.
func (r *Registry) BlobPath(hex string) string {
	return filepath.Join(r.Root, "docker", "registry", "v2", "blobs", "sha256", hex[:2], hex, "data")
}
