package manifest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The literal-secret scan `mur build` runs (W-SEC-004): any mapping key
// whose lower-cased name contains one of these, holding a string that is
// not a ${VAR} reference and looks like a key (a known prefix, or longer
// than 8 bytes). Substring matching is deliberate (and over-eager:
// `tokenizer: cl100k_base` warns), to match Murmur.
var (
	sensitiveKeys  = []string{"api_key", "token", "secret", "password"}
	secretPrefixes = []string{"sk-ant-", "sk-"}
)

const minLiteralSecretLen = 8

// ScanSecrets runs the W-SEC-004 scan over a murmur.yaml of either role.
// A YAML syntax error is returned as E-MAN-002.
func ScanSecrets(data []byte, filename string) ([]Warning, error) {
	if filename == "" {
		filename = FileName
	}
	root, err := parseYAML(data, filename)
	if err != nil {
		return nil, err
	}
	return scanSecrets(root, filename), nil
}

func scanSecrets(root *yaml.Node, file string) []Warning {
	var out []Warning
	budget := maxVisits
	var walk func(n *yaml.Node, dotted, path string, depth int)
	walk = func(n *yaml.Node, dotted, path string, depth int) {
		budget--
		n = deref(n)
		if n == nil || budget < 0 || depth > maxDepth {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := deref(n.Content[i]), n.Content[i+1]
				key := keyText(k)
				dp, p := join(dotted, key), join(path, key)
				if isSensitiveKey(key) && kindOf(v) == kindString && looksLikeSecret(deref(v).Value) {
					l, c := pos(v)
					out = append(out, Warning{Code: WarnLiteralSecret, File: file, Path: p, Line: l, Column: c,
						Msg:  fmt.Sprintf("field '%s' appears to contain a literal secret value", dp),
						Hint: "use an environment reference such as ${VAR_NAME} instead; a literal secret in murmur.yaml may not be safe to commit"})
				}
				walk(v, dp, p, depth+1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, join(dotted, strconv.Itoa(i)), index(path, i), depth+1)
			}
		}
	}
	walk(root, "", "", 0)
	return out
}

func keyText(k *yaml.Node) string {
	if k == nil || k.Kind != yaml.ScalarNode {
		return "<complex key>"
	}
	if kindOf(k) == kindNull {
		return "null"
	}
	return k.Value
}

func isSensitiveKey(key string) bool {
	lk := strings.ToLower(key)
	for _, s := range sensitiveKeys {
		if strings.Contains(lk, s) {
			return true
		}
	}
	return false
}

func looksLikeSecret(v string) bool {
	if isScanEnvRef(v) {
		return false
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return len(v) > minLiteralSecretLen
}

// isScanEnvRef is the scan's notion of a reference: ${[A-Z0-9_]+}. It
// allows a leading digit, unlike interpolation; a mismatch Murmur has too,
// kept so the two scanners agree.
func isScanEnvRef(v string) bool {
	if len(v) < 4 || !strings.HasPrefix(v, "${") || !strings.HasSuffix(v, "}") {
		return false
	}
	for _, c := range v[2 : len(v)-1] {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// mcpHeaderPath is a remote MCP server's header value, where ${VAR} is
// expanded.
var mcpHeaderPath = regexp.MustCompile(`^mcp\.servers\[\d+\]\.headers\.`)

// interpolated reports a field whose ${VAR} references are expanded.
func interpolated(path string) bool {
	return path == "inference.api_key" || mcpHeaderPath.MatchString(path)
}

// literalRefs warns where a whole value is written as ${NAME} but the
// field is not interpolated (only inference.api_key and an MCP header
// value are): the author almost certainly expects substitution and would
// get the literal text.
func literalRefs(root *yaml.Node, file string) []Warning {
	var out []Warning
	budget := maxVisits
	var walk func(n *yaml.Node, path string, depth int)
	walk = func(n *yaml.Node, path string, depth int) {
		budget--
		n = deref(n)
		if n == nil || budget < 0 || depth > maxDepth {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], join(path, keyText(deref(n.Content[i]))), depth+1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, index(path, i), depth+1)
			}
		case yaml.ScalarNode:
			if interpolated(path) || kindOf(n) != kindString {
				return
			}
			if name, ok := envRef(strings.TrimSpace(n.Value)); ok {
				out = append(out, Warning{Code: WarnLiteralInterpolation, File: file, Path: path, Line: n.Line, Column: n.Column,
					Msg:  fmt.Sprintf("'%s' is not interpolated in '%s'; only inference.api_key and mcp.servers[].headers read ${VAR} from the environment", n.Value, path),
					Hint: fmt.Sprintf("write the value itself, or pass %s to guests with capabilities.env.allow", name)})
			}
		}
	}
	walk(root, "", 0)
	return out
}
