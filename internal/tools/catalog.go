package tools

import "context"

// MCPPrefix starts the name of every tool an MCP server lends a capsule:
// mcp__<server>__<tool>. No artifact name can start so (artifact names
// have no '_'), so the name alone says where a call goes.
const MCPPrefix = "mcp__"

// Listed is a tool whose entry in the model's tool list comes from where
// it runs (an MCP server's tools/list), not from a staged manifest.
type Listed struct {
	Name        string
	Description string
	// InputSchema is the tool's JSON Schema object, as JSON.
	InputSchema string
}

// Catalog is a session's tools listed at run time, its MCP servers':
// unlike the staged tools, the list can change while the session runs.
type Catalog interface {
	// Listed is the list now, sorted by name, and its version, which
	// changes whenever the list does. It waits for a refresh a server
	// asked for and that is under way, so a list changed before a call
	// returned is the one the next request holds.
	Listed(ctx context.Context) ([]Listed, uint64)
	// Lookup finds a listed tool by its full name.
	Tools
}
