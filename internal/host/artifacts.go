package host

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/tools"
)

// runtimeOf is how manage reports a's runtime: skills count as wasm.
func runtimeOf(a tools.InstalledArtifact) RuntimeType {
	if a.Native && a.Role != "skill" {
		return RuntimeNative
	}
	return RuntimeWasm
}

// List is manage.list: staged artifacts a model could call (drivers and
// hooks hidden; skills report wasm), then every shell.allow binary not
// already listed, as version 0.0.0, native.
func (c *Capsule) List() []ArtifactSummary {
	out := []ArtifactSummary{}
	if c.Inventory == nil {
		return out
	}
	seen := map[string]bool{}
	for _, a := range c.Inventory.Installed() {
		if a.Role == "driver" || a.Role == "hook" {
			continue
		}
		out = append(out, ArtifactSummary{Name: a.Name, Version: a.Version, Runtime: runtimeOf(a)})
		seen[a.Name] = true
	}
	for _, b := range c.Inventory.ShellAllow() {
		if !seen[b] {
			out = append(out, ArtifactSummary{Name: b, Version: "0.0.0", Runtime: RuntimeNative})
			seen[b] = true
		}
	}
	return out
}

// Describe is manage.describe: any staged artifact (drivers and hooks
// included) or a shell.allow binary, with description, tags and schemas
// from the manifest staging verified or generated.
func (c *Capsule) Describe(name string) (ArtifactInfo, error) {
	notInstalled := fmt.Errorf("artifact '%s' is not installed", name)
	if c.Inventory == nil {
		return ArtifactInfo{}, notInstalled
	}
	var found *tools.InstalledArtifact
	for _, a := range c.Inventory.Installed() {
		if a.Name == name {
			found = &a
			break
		}
	}
	if found == nil && slices.Contains(c.Inventory.ShellAllow(), name) {
		mf, _ := c.Inventory.ShellManifest(name)
		found = &tools.InstalledArtifact{Name: name, Version: "0.0.0", Role: "tool", Native: true, Manifest: mf}
	}
	if found == nil {
		return ArtifactInfo{}, notInstalled
	}
	path := filepath.Join("tools", name, "murmur.yaml")
	if found.Manifest == nil {
		return ArtifactInfo{}, fmt.Errorf("failed to read %s: artifact '%s' was staged without a manifest", path, name)
	}
	info, err := artifactInfoFrom(found.Manifest)
	if err != nil {
		return ArtifactInfo{}, fmt.Errorf("failed to parse %s: %w", path, err)
	}
	info.Name, info.Version, info.Runtime = found.Name, found.Version, runtimeOf(*found)
	return info, nil
}

// artifactInfoFrom reads description, tags (string entries only) and the
// schemas (compact JSON: a string holding JSON is re-encoded, any other
// YAML value converted) from an artifact manifest.
func artifactInfoFrom(data []byte) (ArtifactInfo, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return ArtifactInfo{}, err
	}
	info := ArtifactInfo{Tags: []string{}}
	info.Description, _ = doc["description"].(string)
	if tags, ok := doc["tags"].([]any); ok {
		for _, t := range tags {
			if s, ok := t.(string); ok {
				info.Tags = append(info.Tags, s)
			}
		}
	}
	var err error
	if info.InputSchema, err = schemaJSON(doc, "input_schema"); err != nil {
		return ArtifactInfo{}, err
	}
	if info.OutputSchema, err = schemaJSON(doc, "output_schema"); err != nil {
		return ArtifactInfo{}, err
	}
	return info, nil
}

func schemaJSON(doc map[string]any, key string) (*string, error) {
	v, ok := doc[key]
	if !ok || v == nil {
		return nil, nil
	}
	if s, ok := v.(string); ok {
		var parsed any
		if json.Unmarshal([]byte(s), &parsed) == nil {
			v = parsed
		}
	}
	b, err := json.Marshal(jsonable(v))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	return tools.Str(string(b)), nil
}

// jsonable turns YAML mappings with non-string keys into JSON objects.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = jsonable(e)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = jsonable(e)
		}
		return v
	}
	return v
}

// Pull is manage.pull through the configured Puller.
func (c *Capsule) Pull(ctx context.Context, name, version string) (ArtifactSummary, error) {
	if c.Puller == nil {
		return ArtifactSummary{}, fmt.Errorf("failed to resolve %s@%s: runtime pulls are not available in this session (no registry configured)", name, version)
	}
	a, err := c.Puller.Pull(ctx, name, version)
	if err != nil {
		return ArtifactSummary{}, err
	}
	return ArtifactSummary{Name: a.Name, Version: a.Version, Runtime: runtimeOf(a)}, nil
}

// Diagnostics is manage.diagnostics, as Murmur reports it.
func (c *Capsule) Diagnostics() RuntimeState {
	return RuntimeState{CapsuleID: c.SessionID, Installed: c.List(), Capabilities: "artifact-manager/search and remove are not implemented"}
}

// registerManage defines murmur:artifact-manager/manage@0.1.0. search and
// remove are not implemented, exactly as in Murmur: they always return
// err("not implemented (...)").
func registerManage(l *component.Linker, t *witTypes, get func(*component.Store) *Capsule) error {
	with := func(s *component.Store) (*Capsule, error) {
		if c := get(s); c != nil {
			return c, nil
		}
		return nil, errNoCapsule
	}
	defs := []struct {
		name string
		typ  *wit.Func
		fn   any
	}{
		{"list", t.list, func(ctx context.Context, s *component.Store) ([]ArtifactSummary, error) {
			c, err := with(s)
			if err != nil {
				return nil, err
			}
			return c.List(), nil
		}},
		{"describe", t.describe, func(ctx context.Context, s *component.Store, name string) (wit.ResultValue, error) {
			c, err := with(s)
			if err != nil {
				return wit.ResultValue{}, err
			}
			info, err := c.Describe(name)
			if err != nil {
				return errResult(err), nil
			}
			return wit.Ok(info.value()), nil
		}},
		{"search", t.search, func(ctx context.Context, s *component.Store, query string) (wit.ResultValue, error) {
			return wit.Err(fmt.Sprintf("not implemented (query: %s)", query)), nil
		}},
		{"pull", t.pull, func(ctx context.Context, s *component.Store, name, version string) (wit.ResultValue, error) {
			c, err := with(s)
			if err != nil {
				return wit.ResultValue{}, err
			}
			sum, err := c.Pull(ctx, name, version)
			if err != nil {
				return errResult(err), nil
			}
			return wit.Ok(sum.value()), nil
		}},
		{"remove", t.remove, func(ctx context.Context, s *component.Store, name string) (wit.ResultValue, error) {
			return wit.Err(fmt.Sprintf("not implemented (name: %s)", name)), nil
		}},
		{"diagnostics", t.diag, func(ctx context.Context, s *component.Store) (wit.ResultValue, error) {
			c, err := with(s)
			if err != nil {
				return wit.ResultValue{}, err
			}
			return wit.Ok(c.Diagnostics().value()), nil
		}},
	}
	for _, d := range defs {
		if err := l.Define(InstanceManage, d.name, d.typ, d.fn); err != nil {
			return err
		}
	}
	return nil
}
