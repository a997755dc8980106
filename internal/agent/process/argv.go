package process

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/base/jsonline"
)

// codex reports whether command selects the codex dialect: its base name
// is codex; anything else speaks Claude Code's stream-json.
func codex(command string) bool { return filepath.Base(command) == "codex" }

// BridgeTokenEnv is the variable of the CLI's environment that holds the
// bridge's token, the only place the CLI is given it: never its argv,
// which every local user can read.
const BridgeTokenEnv = "MURMUR_BRIDGE_TOKEN"

// bridgeConfig is where the CLI finds the bridge; nil when there are no
// tools. The token is not in it: the CLI reads it from BridgeTokenEnv in
// its environment, and its argv names only that variable.
type bridgeConfig struct {
	URL   string
	Tools []string
}

// claudeArgs is the Claude dialect's argv after the command (session.md
// §6): the system text is the notices and, after a blank line, the
// prompt; without tools every built-in one is switched off too.
func claudeArgs(model, notices, prompt string, b *bridgeConfig) ([]string, error) {
	args := []string{"--print", "--output-format", "stream-json", "--verbose", "--input-format", "stream-json"}
	if model != "" {
		args = append(args, "--model", model)
	}
	system := notices
	if prompt != "" {
		system += "\n\n" + prompt
	}
	args = append(args, "--system-prompt", system)
	if b == nil {
		return append(args, "--tools", ""), nil
	}
	names := make([]string, len(b.Tools))
	for i, t := range b.Tools {
		names[i] = claudeToolPrefix + t
	}
	// Claude Code expands ${VAR} in an MCP server's url and headers,
	// --mcp-config's included.
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{BridgeServer: map[string]any{
		"type": "http", "url": b.URL, "headers": map[string]string{"Authorization": "Bearer ${" + BridgeTokenEnv + "}"}}}})
	if err != nil {
		return nil, err
	}
	return append(args, "--tools", strings.Join(names, ","), "--mcp-config", string(cfg),
		"--strict-mcp-config", "--permission-mode", "bypassPermissions"), nil
}

// claudeTaskLine is the one stream-json line the task is sent as.
func claudeTaskLine(task string) ([]byte, error) {
	line, err := jsonline.Compact(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "text", "text": task}}}})
	return []byte(line + "\n"), err
}

// codexArgs is the codex dialect's argv after the command (session.md
// §6): read-only sandbox, its own shell and patch tools off, the bridge
// as an MCP server set by -c overrides, and the prompt last.
func codexArgs(model, notices, task string, b *bridgeConfig) []string {
	args := []string{"exec", "--json", "--skip-git-repo-check", "-s", "read-only", "-c", "include_apply_patch_tool=false"}
	for _, f := range []string{"shell_tool", "unified_exec", "shell_snapshot", "code_mode_host"} {
		args = append(args, "--disable", f)
	}
	if model != "" {
		args = append(args, "-m", model)
	}
	prompt := notices
	if b != nil {
		key := "mcp_servers." + BridgeServer
		// codex sends bearer_token_env_var's value as the bearer token.
		args = append(args,
			"-c", key+".url="+strconv.Quote(b.URL),
			"-c", key+".bearer_token_env_var="+strconv.Quote(BridgeTokenEnv))
		prompt += "\n\n" + bridgeGuidance(b.Tools)
	}
	return append(args, prompt+"\n\n"+task)
}

// bridgeGuidance tells codex where the capsule's tools are: its own
// shell and patch tools are disabled.
func bridgeGuidance(tools []string) string {
	return "The tools of this session are served by the MCP server '" + BridgeServer +
		"' (" + strings.Join(tools, ", ") + "); use them, not a shell."
}
