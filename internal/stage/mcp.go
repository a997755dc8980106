package stage

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// MCPServerReport is one mcp.servers entry as --explain-scope and `mur
// doctor` show it: what runs or is reached, never a header's value.
type MCPServerReport struct {
	Name string `json:"name"`
	// Kind is "local" (a contained subprocess on stdio) or "remote"
	// (streamable HTTP from the host).
	Kind    string   `json:"kind"`
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	URL     string   `json:"url,omitempty"`
	// Headers are the names of the headers sent to a remote server.
	Headers []string `json:"headers,omitempty"`
	// Refusal is why staging would refuse the server (E-CAP-001: its URL
	// outside capabilities.network.allow), "" when it would not.
	Refusal string `json:"refusal,omitempty"`
}

// checkMCP refuses, before anything is created, a remote MCP server whose
// URL capabilities.network.allow does not cover: the host could never
// reach it, and the session would fail only when it started. The error
// names the rule to add and points at the url.
func checkMCP(c *manifest.Capsule, file string, rules policy.Rules) error {
	if c.MCP == nil {
		return nil
	}
	for i, s := range c.MCP.Servers {
		if err := checkMCPServer(s, i, file, rules); err != nil {
			return err
		}
	}
	return nil
}

func checkMCPServer(s manifest.MCPServer, i int, file string, rules policy.Rules) error {
	if s.Local() {
		return nil
	}
	scheme, host, port, explicit, err := urlTarget(s.URL)
	if err != nil {
		return nil // manifest validation refused a malformed url
	}
	if rules.AllowRequest(scheme, host, port) {
		return nil
	}
	rule := scheme + "://" + host
	if explicit {
		rule += ":" + strconv.Itoa(int(port))
	}
	path := fmt.Sprintf("mcp.servers[%d].url", i)
	return diag.New(CodeNetRule, "mcp server '%s' at %s is not in capabilities.network.allow: the runtime could not reach it", s.Name, s.URL).
		WithHint(fmt.Sprintf("add `- %s` to capabilities.network.allow in murmur.yaml", rule)).
		At(manifest.At(file, path, s.URLPos.Line, s.URLPos.Column))
}

// urlTarget is what a network rule judges of raw: lower-cased scheme and
// host (IPv6 in brackets) and the port, explicit or the scheme's.
func urlTarget(raw string) (scheme, host string, port uint16, explicit bool, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", 0, false, err
	}
	if u.Hostname() == "" {
		return "", "", 0, false, fmt.Errorf("no host in %s", raw)
	}
	scheme, host = strings.ToLower(u.Scheme), strings.ToLower(u.Hostname())
	port = 443
	if scheme == "http" {
		port = 80
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return "", "", 0, false, err
		}
		port, explicit = uint16(n), true
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme, host, port, explicit, nil
}

// mcpReport is the mcp block as Explain reports it.
func mcpReport(c *manifest.Capsule) []MCPServerReport {
	if c.MCP == nil {
		return nil
	}
	rules, rerr := policy.NetworkRules(c.Capabilities, "capabilities")
	out := []MCPServerReport{}
	for i, s := range c.MCP.Servers {
		r := MCPServerReport{Name: s.Name, Kind: "local", Command: s.Command, Args: s.Args, URL: s.URL}
		if !s.Local() {
			r.Kind = "remote"
			for _, h := range s.Headers {
				r.Headers = append(r.Headers, h.Name)
			}
			err := rerr
			if err == nil {
				err = checkMCPServer(s, i, "", rules)
			}
			if err != nil {
				r.Refusal = refusalText(err)
			}
		}
		out = append(out, r)
	}
	return out
}

// refusalText is a refusal as a report shows it: CODE: message.
func refusalText(err error) string {
	if d, ok := err.(*diag.Error); ok {
		return string(d.Code) + ": " + d.Msg
	}
	return err.Error()
}

// MCPRefusals are the refusals staging would make of the mcp block.
func (g EffectiveGrants) MCPRefusals() []string {
	var out []string
	for _, s := range g.MCPServers {
		if s.Refusal != "" {
			out = append(out, s.Refusal)
		}
	}
	return out
}
