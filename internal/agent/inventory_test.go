package agent

import (
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

func TestInventory(t *testing.T) {
	art := func(name string, role stage.Role, kind stage.Kind, desc, schema, skill string) *stage.Artifact {
		return &stage.Artifact{Name: name, Role: role, Kind: kind, SkillText: skill,
			Manifest: &manifest.Artifact{Name: name, Runtime: string(role), Description: desc, InputSchema: schema}}
	}
	shell := func(name string, m *manifest.ToolRecord) stage.ShellTool {
		return stage.ShellTool{Name: name, Generated: m != nil, ManifestYAML: []byte("description: on disk, not listed\n"), Manifest: m}
	}
	cases := []struct {
		name   string
		arts   []*stage.Artifact
		shells []stage.ShellTool
		bound  string
		want   string
	}{
		{"none", nil, nil, "", `[]`},
		{"sorted by name; drivers, hooks and manifestless skills left out; skills get the default schema and their first line", []*stage.Artifact{
			art("zeta", stage.RoleTool, stage.KindWasm, "", `{"type":"object","required":["q"],"properties":{"q":{"type":"string"}}}`, ""),
			art("drv", stage.RoleDriver, stage.KindWasm, "a driver", "", ""),
			art("hk", stage.RoleHook, stage.KindWasm, "a hook", "", ""),
			art("guide", stage.RoleSkill, stage.KindSkill, "", `{"type":"string"}`, "\n  How to do it.  \nMore."),
			{Name: "local", Role: stage.RoleSkill, Kind: stage.KindSkill, SkillText: "x"},
			art("alpha", stage.RoleTool, stage.KindNative, "  Says hi.  ", manifest.DefaultInputSchema, ""),
		}, nil, "", `[{"description":"Says hi.","name":"alpha","parameters":{"properties":{},"type":"object"}},` +
			`{"description":"How to do it.","name":"guide","parameters":{"properties":{},"type":"object"}},` +
			`{"name":"zeta","parameters":{"properties":{"q":{"type":"string"}},"required":["q"],"type":"object"}}]`},
		{"the skill bound as the system prompt is not callable", []*stage.Artifact{
			art("persona", stage.RoleSkill, stage.KindSkill, "p", "", "You are terse."),
		}, nil, "persona", `[]`},
		{"shell tools are listed from the manifests kept in the session, never their text", []*stage.Artifact{
			art("jq", stage.RoleTool, stage.KindWasm, "jq in wasm", "", ""),
		}, []stage.ShellTool{
			shell("sh", &manifest.ToolRecord{Runtime: "tool", Description: "Runs sh.", InputSchema: `{"type":"object","properties":{"command":{"type":"string"}}}`}),
			shell("git", &manifest.ToolRecord{Description: " from on-stage ", InputSchema: manifest.DefaultInputSchema}),
			shell("guide", &manifest.ToolRecord{Runtime: "skill", Description: "a skill", InputSchema: `{"type":"string"}`}),
			shell("drv", &manifest.ToolRecord{Runtime: "driver", Description: "hidden"}),
			shell("hk", &manifest.ToolRecord{Runtime: "hook", Description: "hidden"}),
			shell("broken", nil),
			{Name: "jq"},
		}, "", `[{"description":"from on-stage","name":"git","parameters":{"properties":{},"type":"object"}},` +
			`{"description":"a skill","name":"guide","parameters":{"properties":{},"type":"object"}},` +
			`{"description":"jq in wasm","name":"jq","parameters":{"properties":{},"type":"object"}},` +
			`{"description":"Runs sh.","name":"sh","parameters":{"properties":{"command":{"type":"string"}},"type":"object"}}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := stage.LoopView{Artifacts: c.arts, ShellTools: c.shells,
				Capsule: &manifest.Capsule{Inference: &manifest.Inference{SystemPromptArtifact: c.bound}}}
			inv, err := inventory(s, s.Capsule.Inference.SystemPromptArtifact, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := encode(inv)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("inventory\n got  %s\n want %s", got, c.want)
			}
		})
	}
}
