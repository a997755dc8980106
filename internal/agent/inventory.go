package agent

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// inventory is the request's tools array (session.md §2.1, §2.3): every
// staged artifact with a manifest except drivers, hooks and the skill
// bound as the system prompt, plus the shell.allow binaries with the
// manifest staging or an on-stage hook wrote for them, plus the MCP
// servers' tools, sorted by name.
// It is built from the values staging kept (the verified artifact
// manifests, the shell-tool manifests as read when written), never from
// tools/ now, which shell commands can rewrite. bound is the skill bound
// as the system prompt ("" for none); listed are the MCP servers' tools
// as they list them now.
func inventory(s stage.LoopView, bound string, listed []tools.Listed) ([]any, error) {
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
		m := st.Manifest
		if m == nil || m.Runtime == manifest.RuntimeDriver || m.Runtime == manifest.RuntimeHook {
			continue
		}
		e := entry{name: st.Name, description: m.Description, schema: m.InputSchema}
		if m.Runtime == manifest.RuntimeSkill {
			// No skill.md to fall back on: staging writes one only for a
			// skill artifact, whose directory is then no shell tool's.
			e.schema = manifest.DefaultInputSchema
		}
		entries = append(entries, e)
	}
	for _, t := range listed {
		entries = append(entries, entry{name: t.Name, description: t.Description, schema: t.InputSchema})
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
