package lockfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
)

// FileName is the lock's name, beside the capsule's murmur.yaml.
const FileName = "murmur.lock"

// Version is the only lock_version this package reads and writes.
const Version = 1

// Lock is the parsed file. Artifacts keep insertion order.
type Lock struct {
	LockVersion uint32  `yaml:"lock_version"`
	Artifacts   []Entry `yaml:"artifacts"`
}

// Entry pins one artifact.
type Entry struct {
	Name            string `yaml:"name"`
	ResolvedVersion string `yaml:"resolved_version"`
	SHA256          Hashes `yaml:"sha256"`
}

// Hashes holds the digest. The key says wasm for historical reasons; it is
// the sha256 of the whole .mur.zip for every artifact type.
type Hashes struct {
	Wasm string `yaml:"wasm"`
}

// New returns an empty lock.
func New() *Lock { return &Lock{LockVersion: Version, Artifacts: []Entry{}} }

// Parse reads and validates lock text. Unknown keys are ignored; scalars
// decode as their source text, so an unquoted 1.0 stays "1.0".
func Parse(data []byte) (*Lock, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, invalid("YAML parse error: " + strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, invalid("YAML parse error: expected a mapping with lock_version and artifacts")
	}
	var version, artifacts *yaml.Node
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case "lock_version":
			version = root.Content[i+1]
		case "artifacts":
			artifacts = root.Content[i+1]
		}
	}
	switch {
	case version == nil:
		return nil, invalid("YAML parse error: missing field `lock_version`")
	case artifacts == nil:
		return nil, invalid("YAML parse error: missing field `artifacts`")
	}
	l := &Lock{Artifacts: []Entry{}}
	if version.Kind != yaml.ScalarNode || version.Tag != "!!int" || version.Decode(&l.LockVersion) != nil {
		return nil, invalid(fmt.Sprintf("YAML parse error: lock_version must be a plain integer, got %q", version.Value))
	}
	switch {
	case artifacts.Kind == yaml.ScalarNode && artifacts.Tag == "!!null" && artifacts.Value == "":
		// "artifacts:" with nothing after it is an empty list.
	case artifacts.Kind != yaml.SequenceNode:
		return nil, invalid("YAML parse error: artifacts must be a list")
	default:
		if err := artifacts.Decode(&l.Artifacts); err != nil {
			return nil, invalid("YAML parse error: " + strings.TrimPrefix(err.Error(), "yaml: "))
		}
	}
	if l.Artifacts == nil {
		l.Artifacts = []Entry{}
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// Validate checks the version and that every entry has a name, a version
// and a digest. It runs on every read and before every write.
func (l *Lock) Validate() error {
	if l.LockVersion != Version {
		return invalid(fmt.Sprintf("unsupported lock_version %d (expected %d)", l.LockVersion, Version))
	}
	for _, e := range l.Artifacts {
		switch {
		case strings.TrimSpace(e.Name) == "":
			return invalid("artifact entry has empty name")
		case strings.TrimSpace(e.ResolvedVersion) == "":
			return invalid(fmt.Sprintf("artifact '%s' has empty resolved_version", e.Name))
		case strings.TrimSpace(e.SHA256.Wasm) == "":
			return invalid(fmt.Sprintf("artifact '%s' has empty sha256.wasm", e.Name))
		}
	}
	return nil
}

// Find returns the first entry named name.
func (l *Lock) Find(name string) (Entry, bool) {
	for _, e := range l.Artifacts {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Upsert replaces the first entry with e's name, or appends e.
func (l *Lock) Upsert(e Entry) {
	for i := range l.Artifacts {
		if l.Artifacts[i].Name == e.Name {
			l.Artifacts[i] = e
			return
		}
	}
	l.Artifacts = append(l.Artifacts, e)
}

// CheckInstall is the install-time guard (E-REG-005): if name is pinned, the
// registry's version and digest must both match the pin. A name that is not
// pinned passes.
func (l *Lock) CheckInstall(name, version, sha256 string) error {
	e, ok := l.Find(name)
	if !ok || (e.ResolvedVersion == version && strings.EqualFold(strings.TrimSpace(e.SHA256.Wasm), sha256)) {
		return nil
	}
	return conflict(name, e.ResolvedVersion, e.SHA256.Wasm, version, sha256)
}

// Marshal validates and serialises the lock in Murmur's layout: block
// style, list items level with "artifacts:", ambiguous strings quoted.
func (l *Lock) Marshal() ([]byte, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	out := *l
	if out.Artifacts == nil {
		out.Artifacts = []Entry{}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(&out); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func invalid(msg string) error {
	return diag.Wrap(CodeInvalid, ErrInvalid, "invalid murmur.lock: %s", msg).
		WithHint("fix murmur.lock by hand, or delete it and run 'mur install' to pin the artifacts again")
}

// IsInvalid reports whether err is a parse or validation failure.
func IsInvalid(err error) bool { return errors.Is(err, ErrInvalid) }
