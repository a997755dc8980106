package manifest

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The `mcp:` block is a mur-go extension, beyond Murmur 0.2.0 and the
// spec's schema: MCP servers whose tools the agent's model sees as
// mcp__<server>__<tool>.

var (
	mcpKeys       = []string{"servers"}
	mcpServerKeys = []string{"name", "command", "args", "env", "url", "headers"}
	// mcpServerName keeps mcp__<server>__<tool> one way to read: no "__"
	// inside, no '_' at either end.
	mcpServerName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]|_[A-Za-z0-9-])*$`)
	envName       = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// headerName is RFC 9110's token.
	headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	envRefIn   = regexp.MustCompile(`\$\{([A-Z_][A-Z0-9_]*)\}`)
	// transportHeaders are the client's own (lower-cased): a manifest
	// setting one would break the transport or the session.
	transportHeaders = []string{"accept", "connection", "content-length", "content-type", "host", "last-event-id",
		"mcp-protocol-version", "mcp-session-id", "te", "trailer", "transfer-encoding", "upgrade"}
)

// MaxMCPServerName is the longest server name: mcp__<server>__<tool> must
// leave room for the tool's name within the 64 characters model APIs
// accept for a tool.
const MaxMCPServerName = 24

// MCP is the capsule's `mcp:` block; nil when absent.
type MCP struct {
	Servers []MCPServer
	Pos     Pos
}

// MCPServer is one mcp.servers entry: a local server (Command set), a
// subprocess speaking MCP on stdio and contained like a shell command, or
// a remote one (URL set) reached over streamable HTTP.
type MCPServer struct {
	Name string
	// Command is a capabilities.shell.allow entry; Args its arguments;
	// Env the variables it gets besides the shell environment, literal
	// values only.
	Command string
	Args    []string
	Env     []MCPEnv
	// URL is the remote server's endpoint; Headers go with every request
	// to its origin, their ${VAR} references expanded.
	URL     string
	Headers []MCPHeader
	// Pos is the entry's; URLPos its url's, where a refusal points.
	Pos, URLPos Pos
}

// Local reports a server the runtime starts as a subprocess.
func (s *MCPServer) Local() bool { return s.Command != "" }

// MCPEnv is one variable of a local server's env.
type MCPEnv struct{ Name, Value string }

// MCPHeader is one header of a remote server, its value expanded. Every
// header value is a credential: the host sends it and no guest or
// subprocess ever sees it.
type MCPHeader struct {
	Name, Value string
	// Vars are the values the ${VAR} references expanded to.
	Vars []string
}

// Secrets are the header values and the variables in them: what the
// session's redactor holds for the session's life (nil-safe).
func (m *MCP) Secrets() []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, s := range m.Servers {
		for _, h := range s.Headers {
			out = append(out, h.Value)
			out = append(out, h.Vars...)
		}
	}
	return out
}

// mcp decodes the `mcp:` block. It runs after capabilities and inference:
// a local server's command must be a shell.allow entry, and only an
// agent capsule has a model to hand the tools to.
func (d *decoder) mcp(f field, ok bool, c *Capsule, env EnvFunc) *MCP {
	o := d.optMap(f, ok, "mcp", mcpKeys)
	if o == nil {
		return nil
	}
	m := &MCP{Pos: nodePos(f.k)}
	sf, sok := o.get("servers")
	items, _ := d.seq(sf, sok, "mcp.servers", "a sequence of servers")
	if len(items) > 0 && !c.IsAgent() {
		d.fail(CodeInvalid, "mcp", f.k, "remove the mcp block, or add an inference block to make this an agent capsule",
			"invalid mcp config for 'mcp': MCP servers' tools are handed to the agent's model, and a script capsule has none")
		return nil
	}
	seen := map[string]bool{}
	for i, it := range items {
		if s, good := d.mcpServer(it, index("mcp.servers", i), c, env, seen); good {
			m.Servers = append(m.Servers, s)
		}
	}
	return m
}

func (d *decoder) mcpServer(n *yaml.Node, path string, c *Capsule, env EnvFunc, seen map[string]bool) (MCPServer, bool) {
	s := MCPServer{Pos: nodePos(n)}
	if kindOf(n) != kindMapping {
		d.typeError(path, n, "a mapping")
		return s, false
	}
	before := len(d.errs)
	o := d.object(n, path, mcpServerKeys)
	bad := func(at *yaml.Node, sub, hint, format string, args ...any) {
		p := join(path, sub)
		d.fail(CodeInvalid, p, at, hint, "invalid mcp config for '%s': %s", p, fmt.Sprintf(format, args...))
	}
	at := func(f field, ok bool) *yaml.Node {
		if ok {
			return f.v
		}
		return n
	}

	nf, nok := o.get("name")
	name, _ := d.looseString(nf, nok, path+".name")
	cf, cok := o.get("command")
	command, _ := d.looseString(cf, cok, path+".command")
	af, aok := o.get("args")
	args, _, _ := d.stringList(af, aok, path+".args", false)
	uf, uok := o.get("url")
	rawURL, _ := d.looseString(uf, uok, path+".url")
	ef, eok := o.get("env")
	envMap := d.optMap(ef, eok, path+".env", nil)
	hf, hok := o.get("headers")
	headers := d.optMap(hf, hok, path+".headers", nil)
	if len(d.errs) > before {
		return s, false
	}

	name = strings.TrimSpace(name)
	switch {
	case name == "":
		bad(at(nf, nok), "name", "give the server a name, e.g. `name: everything`; its tools are named mcp__<name>__<tool>", "missing required field")
	case len(name) > MaxMCPServerName || !mcpServerName.MatchString(name):
		bad(nf.v, "name", "use letters, digits, '-' and single '_', e.g. `name: github`",
			"'%s' must be at most %d letters, digits, '-' or single '_' (not at either end): the model calls its tools mcp__%s__<tool>", name, MaxMCPServerName, name)
	case seen[name]:
		bad(nf.v, "name", "give each server its own name", "'%s' names an earlier server too", name)
	}
	seen[name] = true
	s.Name = name

	command, rawURL = strings.TrimSpace(command), strings.TrimSpace(rawURL)
	switch {
	case command != "" && rawURL != "":
		bad(uf.k, "url", "keep `command:` for a local server or `url:` for a remote one", "a server is either local (command) or remote (url), not both")
	case command == "" && rawURL == "":
		bad(n, "command", "add `command:` (a local server run on stdio) or `url:` (a remote server over streamable HTTP)", "missing required field: command or url")
	case command != "":
		d.mcpLocal(&s, command, c, bad, cf, args, envMap, headers, hf)
	default:
		d.mcpRemote(&s, rawURL, uf, bad, af, aok, ef, eok, headers, env)
	}
	return s, len(d.errs) == before
}

// mcpLocal checks a local server: its command an allowed binary, its env
// literal.
func (d *decoder) mcpLocal(s *MCPServer, command string, c *Capsule, bad func(*yaml.Node, string, string, string, ...any),
	cf field, args []string, envMap *obj, headers *obj, hf field) {
	s.Command, s.Args = command, args
	if !contains(c.Capabilities.ShellAllow(), command) {
		bad(cf.v, "command", fmt.Sprintf("add '%s' to capabilities.shell.allow (and its files to shell.interpreter_runtime)", command),
			"'%s' is not in capabilities.shell.allow — a local MCP server runs as a contained subprocess, like a shell command, and only an allowed binary may run", command)
	}
	if headers != nil {
		bad(hf.k, "headers", "remove `headers:`; pass what a local server needs in `env:`", "headers are sent to a remote server (url); a local server has none")
	}
	if envMap == nil {
		return
	}
	for _, e := range envMap.fields {
		p := "env." + e.key
		v, _ := d.looseString(e, true, join(envMap.path, e.key))
		switch {
		case !envName.MatchString(e.key):
			bad(e.k, p, "use letters, digits and '_', not starting with a digit", "'%s' is not an environment variable name", e.key)
		case strings.Contains(v, "${"):
			bad(e.v, p, "write the value itself; pass a host variable with capabilities.shell.baseline_env, or use a remote server's headers for a credential",
				"'%s' is not expanded: a local server's env holds literal values, never the host's variables or secrets", v)
		default:
			s.Env = append(s.Env, MCPEnv{Name: e.key, Value: v})
		}
	}
}

// mcpRemote checks a remote server: an http(s) URL without credentials in
// it, header values with their references expanded.
func (d *decoder) mcpRemote(s *MCPServer, rawURL string, uf field, bad func(*yaml.Node, string, string, string, ...any),
	af field, aok bool, ef field, eok bool, headers *obj, env EnvFunc) {
	s.URL, s.URLPos = rawURL, nodePos(uf.v)
	u, err := url.Parse(rawURL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		bad(uf.v, "url", "write the server's streamable HTTP endpoint, e.g. https://mcp.example.com/mcp", "'%s' is not an http:// or https:// URL with a host", rawURL)
	case u.User != nil:
		bad(uf.v, "url", "remove the user and password from the URL; put a credential in `headers:` as ${VAR}", "'%s' carries credentials in the URL", rawURL)
	case u.Fragment != "":
		bad(uf.v, "url", "remove the '#' part", "'%s' has a fragment, which is never sent", rawURL)
	}
	if aok {
		bad(af.k, "args", "remove `args:`; they are a local server's (command)", "a remote server (url) takes no args")
	}
	if eok {
		bad(ef.k, "env", "remove `env:`; it is a local server's (command)", "a remote server (url) has no environment")
	}
	if headers == nil {
		return
	}
	for _, h := range headers.fields {
		p := "headers." + h.key
		v, set := d.looseString(h, true, join(headers.path, h.key))
		if !set {
			if kindOf(h.v) == kindNull {
				bad(h.k, p, "give the header a value, or remove it", "the header has no value")
			}
			continue
		}
		if !headerName.MatchString(h.key) {
			bad(h.k, p, "use a header name such as Authorization", "'%s' is not an HTTP header name", h.key)
			continue
		}
		if contains(transportHeaders, strings.ToLower(h.key)) {
			bad(h.k, p, "remove it: the MCP client sets it for every request", "'%s' belongs to the HTTP transport and the MCP protocol, not to the capsule", h.key)
			continue
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			bad(h.v, p, "write the value on one line", "the value holds a line break")
			continue
		}
		hd := MCPHeader{Name: h.key}
		var missing []string
		hd.Value = envRefIn.ReplaceAllStringFunc(v, func(ref string) string {
			name := ref[2 : len(ref)-1]
			val, ok := env(name)
			if !ok {
				missing = append(missing, name)
				return ""
			}
			hd.Vars = append(hd.Vars, val)
			return val
		})
		if len(missing) > 0 {
			bad(h.v, p, fmt.Sprintf("export %s in your shell, or add %s=<value> to the .env file beside murmur.yaml", missing[0], missing[0]),
				"the value references %s but the environment variable is not set", missing[0])
			continue
		}
		if strings.ContainsAny(hd.Value, "\r\n\x00") {
			bad(h.v, p, "check the variable's value", "the expanded value holds a line break")
			continue
		}
		s.Headers = append(s.Headers, hd)
	}
}
