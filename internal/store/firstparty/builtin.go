package firstparty

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mur-go/mur/guests"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/registry"
)

// Builtin is one built-in artifact.
type Builtin struct {
	Name, Version string
	// Runtime is the artifact's runtime: driver or hook.
	Runtime     string
	Description string
	// Extra is the rest of the manifest: a driver's credential block (how
	// the host hands the provider the key, see manifest.Credential), a
	// hook's binding, execution_mode and commit_policy.
	Extra string
	wasm  []byte
}

// All is the built-in artifacts, by name.
func All() []Builtin {
	return []Builtin{
		{Name: "anthropic", Version: "0.1.0", Runtime: "driver", wasm: guests.DriverAnthropic,
			Description: "Anthropic Messages API driver (tool use, extended thinking, streaming)",
			Extra:       "credential:\n  header: x-api-key\n"},
		{Name: "compact", Version: "0.1.0", Runtime: "hook", wasm: guests.Compact,
			Description: "Summarises the conversation through the capsule's own model when the context window fills, so a long session keeps going.",
			Extra:       "binding: on-compaction\nexecution_mode: blocking\ncommit_policy: replace-context\n"},
		{Name: "guard", Version: "0.1.0", Runtime: "hook", wasm: guests.Guard,
			Description: "Denies tools and shell commands by pattern (guard.json in its filesystem scope); a task that used one is reopened with the violations, then failed.",
			Extra:       "execution_mode: blocking\ncommit_policy: reopen-task\n"},
		{Name: "openai-compatible", Version: "0.1.0", Runtime: "driver", wasm: guests.DriverOpenAI,
			Description: "OpenAI Chat Completions driver for OpenAI, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, Together, Groq",
			Extra:       "credential:\n  header: Authorization\n  prefix: \"Bearer \"\n"},
		{Name: "scripted", Version: "0.1.0", Runtime: "driver", wasm: guests.Scripted,
			Description: "replays the turns in inference.driver.config, for tests"},
	}
}

// Manifest is the artifact's murmur.yaml.
func (b Builtin) Manifest() string {
	return fmt.Sprintf("name: %s\nversion: %q\nruntime: %s\ndescription: %q\nrequires_files: [%s.wasm]\n%s",
		b.Name, b.Version, b.Runtime, b.Description, b.Name, b.Extra)
}

// Meta is what the registry reports for it.
func (b Builtin) Meta() artifact.Meta {
	desc := b.Description
	return artifact.Meta{Name: b.Name, Version: b.Version, Runtime: artifact.Wasm, ArtifactRuntime: b.Runtime,
		Platforms: []artifact.Platform{}, Description: &desc, Tags: []string{"builtin"}}
}

// epoch is every entry's timestamp, so the bytes depend on the contents
// only.
func epoch() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// Package is the .mur.zip: murmur.yaml, then the component.
func (b Builtin) Package() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range []struct {
		name string
		data []byte
	}{{"murmur.yaml", []byte(b.Manifest())}, {b.Name + ".wasm", b.wasm}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Store, Modified: epoch()})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Registry serves the built-in artifacts; it implements registry.Resolver
// and registry.Lister. The zero value is ready.
type Registry struct {
	once sync.Once
	pkgs map[string][]byte
	err  error
}

// SourceName is how install reports the built-in registry.
const SourceName = "built-in registry"

func (r *Registry) packages() (map[string][]byte, error) {
	r.once.Do(func() {
		r.pkgs = map[string][]byte{}
		for _, b := range All() {
			data, err := b.Package()
			if err != nil {
				r.err = fmt.Errorf("assembling built-in %s@%s: %w", b.Name, b.Version, err)
				return
			}
			r.pkgs[b.Name+"@"+b.Version] = data
		}
	})
	return r.pkgs, r.err
}

// Resolve returns a built-in package; any platform gets the generic one.
func (r *Registry) Resolve(ctx context.Context, name, version string, _ *artifact.Platform) (*registry.Resolved, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	all := All()
	i := slices.IndexFunc(all, func(b Builtin) bool { return b.Name == name && b.Version == version })
	if i < 0 {
		return nil, registry.NotFoundError(name, version)
	}
	pkgs, err := r.packages()
	if err != nil {
		return nil, err
	}
	data := pkgs[name+"@"+version]
	return &registry.Resolved{Name: name, Version: version, Data: data, SHA256: artifact.SHA256Hex(data), Meta: all[i].Meta()}, nil
}

// List is every built-in artifact, sorted by name.
func (r *Registry) List(ctx context.Context) ([]artifact.Meta, error) {
	all := All()
	out := make([]artifact.Meta, 0, len(all))
	for _, b := range all {
		out = append(out, b.Meta())
	}
	return out, ctx.Err()
}
