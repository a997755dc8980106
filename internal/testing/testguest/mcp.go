package testguest

import (
	"os"
	"path/filepath"
	"testing"
)

// MCPServerDir is where conformance/mcp-servers's `npm ci` (which .ci/run runs)
// installs the reference MCP server package name (server-everything,
// server-filesystem), pinned by its package-lock.json. A test needing
// one fails, never skips, when it is missing.
func MCPServerDir(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join(ModuleRoot(), "conformance", "mcp-servers", "node_modules", "@modelcontextprotocol", name)
	if _, err := os.Stat(filepath.Join(dir, "dist", "index.js")); err != nil {
		tb.Fatalf("reference MCP server %s is not installed: %v (run `npm ci` in conformance/mcp-servers; .ci/run does)", name, err)
	}
	return dir
}

// MCPModules is conformance/mcp-servers/node_modules, the tree a local reference
// server's node reads its modules from (a capsule's
// shell.interpreter_runtime grant).
func MCPModules() string {
	return filepath.Join(ModuleRoot(), "conformance", "mcp-servers", "node_modules")
}
