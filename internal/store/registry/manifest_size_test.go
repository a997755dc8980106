package registry

import (
	"github.com/mur-go/mur/internal/testing/testguest"

	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oversizedPackage is a .mur.zip whose murmur.yaml inflates to 2 MiB.
func oversizedPackage(t *testing.T) []byte {
	return testguest.Zip(t, "murmur.yaml", "name: big\nversion: \"1.0.0\"\nruntime: tool\ndescription: "+strings.Repeat("x", 2<<20)+"\n")
}

// The server refuses such an upload itself, whatever client sent it, and
// stores nothing.
func TestServerRefusesAnOversizedManifest(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(NewServer(dir, WithAPIKey(key)))
	defer srv.Close()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", srv.URL+"/v1/artifacts?name=big&version=1.0.0&runtime=wasm", bytes.NewReader(oversizedPackage(t)))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 4 || !strings.Contains(string(b), "murmur.yaml in the package is too large (2097") {
		t.Errorf("upload: %d %s", resp.StatusCode, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "big")); !os.IsNotExist(err) {
		t.Errorf("the server stored the package: %v", err)
	}
}

// Select reads ./murmur.yaml for registry settings under the same cap.
func TestSelectRefusesAnOversizedManifest(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte("name: x\ndescription: "+strings.Repeat("x", 2<<20)+"\n"), 0o644)
	if _, err := Select("", dir); err == nil || !strings.Contains(err.Error(), "is too large") {
		t.Fatalf("Select: %v", err)
	}
}
