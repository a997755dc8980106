// Package process is transport: process (session.md §6): a local agent
// CLI (Claude Code's claude, or codex) runs as the model. Run starts it
// through the native-tool spawn path with the task, reads its JSON event
// stream to count turns, trace and take the result, and serves the
// capsule's tools to it over the bridge, a loopback MCP server behind a
// bearer token whose calls go through the loop's dispatch. The token
// reaches the CLI only in its environment (BridgeTokenEnv), never in its
// argv; RATIONALE.md says why.
package process
