package mcp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// serverBin is testdata/server, built once for the package's tests.
var serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mur-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serverBin = filepath.Join(dir, "server")
	cmd := exec.Command("go", "build", "-o", serverBin, "./internal/remote/mcp/testdata/server")
	cmd.Dir = testguest.ModuleRoot()
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the test MCP server: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
