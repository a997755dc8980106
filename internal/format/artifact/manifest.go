package artifact

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/manifestio"
	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
)

// Manifest is the part of an artifact's murmur.yaml that packaging needs
// (manifest.md §2.1). It is read leniently, like Murmur's untyped loader:
// unknown keys are ignored and only these fields are type-checked.
//
// The full parser with positions and warnings lives in package manifest;
// this reader is deliberately small so that archive and registry code can
// depend on it without depending on the whole capsule schema.
type Manifest struct {
	Name           string
	Version        string
	Runtime        string   // role: tool, driver, hook, skill (legacy wasm/native)
	Implementation string   // "native" selects bin/<name>; anything else is wasm
	Execution      string   // explicit packaging type, lower-cased; "" if absent
	RequiresFiles  []string // files mur build packs besides the manifest
	Description    string
}

// ParseManifest reads an artifact manifest from YAML text.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > manifestio.MaxSize {
		return nil, manifestio.TooLarge(ManifestEntry, int64(len(data)))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, newError(CodeSyntax, "fix the YAML syntax in murmur.yaml", err,
			"murmur.yaml: YAML syntax error: "+strings.TrimPrefix(err.Error(), "yaml: "))
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, typeError("<root>", "mapping", root)
	}
	fields := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		fields[root.Content[i].Value] = root.Content[i+1]
	}
	m := &Manifest{}
	for _, f := range []struct {
		key string
		dst *string
	}{{"name", &m.Name}, {"version", &m.Version}, {"runtime", &m.Runtime}} {
		n, ok := fields[f.key]
		if !ok || isNull(n) {
			return nil, newError(CodeMissingField, "add '"+f.key+":' to murmur.yaml (artifacts need name, version and runtime)",
				nil, fmt.Sprintf("murmur.yaml: missing required field '%s'", f.key))
		}
		if kindName(n) != "string" {
			return nil, typeError(f.key, "string", n)
		}
		*f.dst = n.Value
	}
	if n, ok := fields["implementation"]; ok && kindName(n) == "string" {
		m.Implementation = n.Value
	}
	if n, ok := fields["description"]; ok && kindName(n) == "string" {
		m.Description = n.Value
	}
	if n, ok := fields["execution"]; ok && !isNull(n) {
		if kindName(n) != "string" {
			return nil, typeError("execution", "string", n)
		}
		e := strings.ToLower(n.Value)
		if _, err := ParseRuntimeType(e); err != nil || e != strings.ToLower(n.Value) {
			return nil, newError(CodeInvalid, "use execution: wasm, native or static, or remove it", nil,
				fmt.Sprintf("murmur.yaml: field 'execution' has invalid type (expected one of: wasm, native, static, got %s)", n.Value))
		}
		m.Execution = e
	}
	if n, ok := fields["requires_files"]; ok && !isNull(n) {
		if n.Kind != yaml.SequenceNode {
			return nil, typeError("requires_files", "sequence of strings", n)
		}
		m.RequiresFiles = []string{}
		for _, item := range n.Content {
			if kindName(item) != "string" {
				return nil, typeError("requires_files", "sequence of strings", item)
			}
			m.RequiresFiles = append(m.RequiresFiles, item.Value)
		}
	} else if ok && n.Tag == "!!null" && n.Value != "" {
		return nil, typeError("requires_files", "sequence of strings", n)
	}
	if m.RequiresFiles == nil && m.Runtime == "skill" {
		m.RequiresFiles = []string{SkillEntry}
	}
	return m, nil
}

// PackagingType derives the registry runtime: execution if set; else skill
// is static; a native tool is native; everything else is wasm.
func (m *Manifest) PackagingType() RuntimeType {
	switch {
	case m.Execution != "":
		return RuntimeType(m.Execution)
	case m.Runtime == "skill":
		return Static
	case m.Runtime == "tool" && m.Implementation == "native":
		return Native
	}
	return Wasm
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// kindName names a node's type the way Murmur's messages do.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return kindName(n.Alias)
	}
	if n.Style&yaml.TaggedStyle != 0 && !strings.HasPrefix(n.Tag, "!!") {
		return "tagged"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!bool":
		return boolOrString(n)
	case "!!int", "!!float":
		return "number"
	}
	return "string"
}

// boolOrString applies the YAML 1.2 core schema: only true/false spellings
// are booleans; yes/on/no/off are strings.
func boolOrString(n *yaml.Node) string {
	switch n.Value {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "boolean"
	}
	return "string"
}

func typeError(field, want string, n *yaml.Node) *diag.Error {
	return newError(CodeInvalid, fmt.Sprintf("make '%s' a %s in murmur.yaml (quote versions: version: \"1.0\")", field, want), nil,
		fmt.Sprintf("murmur.yaml: field '%s' has invalid type (expected %s, got %s)", field, want, kindName(n)))
}
