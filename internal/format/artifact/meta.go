package artifact

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// RuntimeType is the packaging type a registry records: how the payload is
// found inside the archive (root wasm, bin/<name>, skill.md).
type RuntimeType string

const (
	Wasm   RuntimeType = "wasm"
	Native RuntimeType = "native"
	Static RuntimeType = "static"
)

// ParseRuntimeType accepts wasm, native or static in any case.
func ParseRuntimeType(s string) (RuntimeType, error) {
	switch t := RuntimeType(strings.ToLower(s)); t {
	case Wasm, Native, Static:
		return t, nil
	}
	return "", fmt.Errorf("invalid runtime '%s' (expected wasm|native|static)", s)
}

func (t *RuntimeType) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseRuntimeType(s)
	*t = v
	return err
}

// IsReservedVersion reports latest, stable and edge in any case. They can
// never be published: they are names clients may one day resolve to a
// moving target.
func IsReservedVersion(v string) bool {
	switch strings.ToLower(v) {
	case "latest", "stable", "edge":
		return true
	}
	return false
}

// Meta is the registry metadata of one artifact version (.meta.json, the
// HTTP index). Field names and JSON shape are Murmur's.
type Meta struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	Runtime         RuntimeType `json:"runtime"`
	ArtifactRuntime string      `json:"artifact_runtime"`
	Platforms       []Platform  `json:"platforms"`
	Description     *string     `json:"description"`
	Tags            []string    `json:"tags"`
}

// ID is "<name>@<version>".
func (m Meta) ID() string { return m.Name + "@" + m.Version }

// FallbackMeta is what a store reports for a version without .meta.json.
func FallbackMeta(name, version string) Meta {
	return Meta{Name: name, Version: version, Runtime: Wasm, Platforms: []Platform{}, Tags: []string{}}
}

// MarshalJSON writes empty lists as [] rather than null, as Murmur does.
func (m Meta) MarshalJSON() ([]byte, error) {
	type plain Meta
	if m.Platforms == nil {
		m.Platforms = []Platform{}
	}
	if m.Tags == nil {
		m.Tags = []string{}
	}
	return json.Marshal(plain(m))
}

// UnmarshalJSON requires name, version, runtime and artifact_runtime;
// platforms and tags default to empty.
func (m *Meta) UnmarshalJSON(b []byte) error {
	type plain Meta
	var raw struct {
		plain
		Name            *string      `json:"name"`
		Version         *string      `json:"version"`
		Runtime         *RuntimeType `json:"runtime"`
		ArtifactRuntime *string      `json:"artifact_runtime"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var missing []string
	for _, f := range []struct {
		name string
		ok   bool
	}{{"name", raw.Name != nil}, {"version", raw.Version != nil}, {"runtime", raw.Runtime != nil}, {"artifact_runtime", raw.ArtifactRuntime != nil}} {
		if !f.ok {
			missing = append(missing, f.name)
		}
	}
	if missing != nil {
		return errors.New("missing field " + strings.Join(missing, ", "))
	}
	*m = Meta(raw.plain)
	m.Name, m.Version, m.Runtime, m.ArtifactRuntime = *raw.Name, *raw.Version, *raw.Runtime, *raw.ArtifactRuntime
	if m.Platforms == nil {
		m.Platforms = []Platform{}
	}
	if m.Tags == nil {
		m.Tags = []string{}
	}
	return nil
}
