package agent

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

// inventory is the request's tools array (session.md §2.1, §2.3): every
// staged artifact with a manifest except drivers, hooks and the skill
// bound as the system prompt, plus the shell.allow binaries staging wrote
// a manifest for, sorted by name. It is built from what staging verified,
// never from tools/ now, which guests can rewrite. bound is the skill
// bound as the system prompt ("" for none).
func inventory(s *stage.Session, bound string) ([]any, error) {
	type entry struct {
		name, description, schema string
	}
	var entries []entry
	for _, a := range s.Artifacts {
		if a.Manifest == nil || a.Role == stage.RoleDriver || a.Role == stage.RoleHook {
			continue
		}
		e := entry{name: a.Name, description: a.Manifest.Description, schema: a.Manifest.InputSchema}
		if a.Kind == stage.KindSkill {
			if a.Name == bound {
				continue
			}
			e.schema = manifest.DefaultInputSchema
			if e.description == "" {
				e.description = firstLine(a.SkillText)
			}
		}
		entries = append(entries, e)
	}
	for _, st := range s.ShellTools {
		if !st.Generated {
			continue
		}
		f, _, err := manifest.Parse(st.ManifestYAML, st.Name+"/murmur.yaml", manifest.ParseOptions{Role: manifest.RoleArtifact})
		if err != nil || f.Artifact == nil {
			return nil, fmt.Errorf("reading the generated manifest of shell tool '%s': %w", st.Name, err)
		}
		entries = append(entries, entry{name: st.Name, description: f.Artifact.Description, schema: f.Artifact.InputSchema})
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.name, b.name) })
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		var params any
		if err := decode(cmp.Or(e.schema, manifest.DefaultInputSchema), &params); err != nil {
			return nil, fmt.Errorf("tool '%s' input_schema: %w", e.name, err)
		}
		m := map[string]any{"name": e.name, "parameters": params}
		if d := strings.TrimSpace(e.description); d != "" {
			m["description"] = d
		}
		out = append(out, m)
	}
	return out, nil
}

func firstLine(text string) string {
	for line := range strings.Lines(text) {
		if l := strings.TrimSpace(line); l != "" {
			return l
		}
	}
	return ""
}
