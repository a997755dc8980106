package main

// How the fake CLI finds the bridge: as the real CLI reads its
// configuration, so a test that passes with it shows the real one would
// reach the bridge. Claude Code takes --mcp-config as JSON or as the path
// of a JSON file and expands ${VAR} and ${VAR:-default} from its
// environment in a server's url and headers (an unset variable stays as
// written); codex takes -c overrides whose values are TOML, and sends
// http_headers as written, env_http_headers' and bearer_token_env_var's
// variables' values from its environment.

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

const server = "claude_bridge"

// bridgeConfig is the bridge's URL and the Authorization header to send.
func bridgeConfig(codex bool) (url, auth string, err error) {
	if codex {
		return codexConfig(os.Args[1:])
	}
	return claudeConfig(os.Args[1:])
}

func claudeConfig(args []string) (url, auth string, err error) {
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--mcp-config=")
		if !ok && a == "--mcp-config" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if !ok {
			continue
		}
		data := []byte(v)
		if !strings.HasPrefix(strings.TrimSpace(v), "{") {
			if data, err = os.ReadFile(v); err != nil {
				return "", "", fmt.Errorf("--mcp-config: %w", err)
			}
		}
		var cfg struct {
			MCPServers map[string]struct {
				Type, URL string
				Headers   map[string]string
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal(data, &cfg); err != nil {
			return "", "", fmt.Errorf("--mcp-config: %w", err)
		}
		s, ok := cfg.MCPServers[server]
		if !ok || s.Type != "http" {
			return "", "", fmt.Errorf("--mcp-config has no http server %s", server)
		}
		return expand(s.URL), expand(s.Headers["Authorization"]), nil
	}
	return "", "", fmt.Errorf("no --mcp-config in argv")
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}`)

// expand is Claude Code's ${VAR} and ${VAR:-default} expansion.
func expand(s string) string {
	return envRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := envRef.FindStringSubmatch(ref)
		v, set := os.LookupEnv(m[1])
		hasDefault := strings.Contains(ref, ":-")
		switch {
		case set && (v != "" || !hasDefault):
			return v
		case hasDefault:
			return m[2]
		}
		return ref
	})
}

func codexConfig(args []string) (url, auth string, err error) {
	prefix := "mcp_servers." + server + "."
	var bearerVar string
	headers := map[string]string{}
	for i := 0; i+1 < len(args); i++ {
		if args[i] != "-c" && args[i] != "--config" {
			continue
		}
		kv, ok := strings.CutPrefix(args[i+1], prefix)
		if !ok {
			continue
		}
		key, value, _ := strings.Cut(kv, "=")
		switch key {
		case "url":
			url, err = strconv.Unquote(value)
		case "bearer_token_env_var":
			bearerVar, err = strconv.Unquote(value)
		case "http_headers", "env_http_headers":
			var table map[string]string
			if table, err = inlineTable(value); err != nil {
				break
			}
			for k, v := range table {
				if key == "env_http_headers" {
					v = os.Getenv(v)
				}
				headers[k] = v
			}
		}
		if err != nil {
			return "", "", fmt.Errorf("-c %s: %w", args[i+1], err)
		}
	}
	if url == "" {
		return "", "", fmt.Errorf("no -c %surl in argv", prefix)
	}
	auth = headers["Authorization"]
	if bearerVar != "" {
		v := os.Getenv(bearerVar)
		if v == "" {
			return "", "", fmt.Errorf("environment variable %s for MCP server %s is not set", bearerVar, server)
		}
		auth = "Bearer " + v
	}
	return url, auth, nil
}

// inlineTable parses a TOML inline table of string values.
func inlineTable(s string) (map[string]string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("%q is not an inline table", s)
	}
	out := map[string]string{}
	rest := strings.TrimSpace(s[1 : len(s)-1])
	for rest != "" {
		k, v, ok := strings.Cut(rest, "=")
		if !ok {
			return nil, fmt.Errorf("%q: a key without a value", rest)
		}
		k = strings.TrimSpace(k)
		if uk, err := strconv.Unquote(k); err == nil {
			k = uk
		}
		v = strings.TrimSpace(v)
		q, err := strconv.QuotedPrefix(v)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", v, err)
		}
		out[k], _ = strconv.Unquote(q)
		rest = strings.TrimPrefix(strings.TrimSpace(v[len(q):]), ",")
		rest = strings.TrimSpace(rest)
	}
	return out, nil
}
