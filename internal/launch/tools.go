package launch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// toolbox is what the capsule's invoke and manage act on.
type toolbox struct {
	allowlist []string
	tools     *tools.ToolSet
	inventory *tools.StagedInventory
}

// newToolbox makes every staged artifact callable. The allowlist is the
// manifest's tool artifacts, in declaration order: invoke refuses any
// other name before looking anything up (wit.md §5.2).
func newToolbox(o *Options, linker *component.Linker) (*toolbox, error) {
	s := o.Staged
	tb := &toolbox{tools: tools.NewToolSet()}
	var installed []tools.InstalledArtifact
	for _, a := range s.Artifacts {
		if a.ManifestPath != "" {
			installed = append(installed, tools.InstalledArtifact{Name: a.Name, Version: a.Version,
				Role: string(a.Role), Native: a.Kind == stage.KindNative, Manifest: a.ManifestYAML})
		}
		if a.Role != stage.RoleTool {
			continue
		}
		tb.allowlist = append(tb.allowlist, a.Name)
		t, err := newTool(o, linker, toolSpec{name: a.Name, kind: a.Kind, component: a.Component,
			binary: a.BinaryPath, binarySHA256: a.BinarySHA256, skill: a.SkillText, grants: a.Grants})
		if err != nil {
			return nil, err
		}
		tb.tools.Add(a.Name, logged{name: a.Name, tool: t, log: o.Log})
	}
	shellMF := map[string][]byte{}
	for _, st := range s.ShellTools {
		if st.Generated {
			shellMF[st.Name] = st.ManifestYAML
		}
	}
	tb.inventory = tools.NewStagedInventory(s.Capsule.Capabilities.ShellAllow(), shellMF, installed)
	return tb, nil
}

// toolSpec is one staged or pulled tool, whatever its origin: what
// staging or the pull verified, never what is in tools/ now.
type toolSpec struct {
	name         string
	kind         stage.Kind
	component    *component.Component
	binary       string
	binarySHA256 string
	skill        string // the guidance text
	grants       stage.Grants
	// credential is the driver's gateway rule (nil for tools); rawKey
	// gives the driver the key itself (inference.driver.raw_api_key).
	credential *wasip2.Credential
	rawKey     string
	// driverConfig, when set, is the driver's MURMUR_INFERENCE_DRIVER_CONFIG
	// in place of inference.driver.config's (the compaction overlay).
	driverConfig *string
}

// newTool wraps a tool for its kind: a WASM component in a fresh store
// per call with its own grants and limits, a native binary in the
// accessible workdir with a scrubbed environment and the same deadline,
// or a skill's guidance text.
func newTool(o *Options, linker *component.Linker, t toolSpec) (tools.Tool, error) {
	limits := guestLimits(t.grants.Limits)
	switch t.kind {
	case stage.KindWasm:
		g := toolGrants(o, t.grants, t.name)
		g.Credential = t.credential
		if t.rawKey != "" {
			g.Env = withEnv(g.Env, keyVar, t.rawKey)
		}
		if t.driverConfig != nil {
			g.Env = setEnv(g.Env, configVar, *t.driverConfig)
		}
		wt, err := tools.NewWasmTool(tools.WasmToolConfig{Name: t.name, Component: t.component,
			Linker: linker, Grants: g, Limits: limits})
		if err != nil {
			return nil, fmt.Errorf("preparing tool '%s': %w", t.name, err)
		}
		return wt, nil
	case stage.KindNative:
		if o.Trampoline == "" {
			return nil, fmt.Errorf("preparing native tool '%s': no rlimit trampoline configured, and a native tool never runs without capabilities.resources applied", t.name)
		}
		env, err := tools.SubprocessEnv{Getenv: o.Getenv, BaselineEnv: t.grants.ShellBaselineEnv,
			StripEnv: t.grants.ShellStripEnv, Workdir: o.Staged.AccessibleDir}.Build()
		if err != nil {
			return nil, fmt.Errorf("preparing native tool '%s': %w", t.name, err)
		}
		return &tools.NativeTool{Name: t.name, Path: t.binary, SHA256: t.binarySHA256, Dir: o.Staged.AccessibleDir,
			Env: env, Deadline: limits.Deadline,
			Sandbox: o.trampoline(sandbox.RlimitsFor(t.grants.Resources),
				o.Staged.Subprocesses.ToolScope(pathEnv(o), t.binary, tools.NativeBinaryFD).Plan(sandbox.HostNetNS()),
				o.Staged.Subprocesses.Egress(o.Log))}, nil
	case stage.KindSkill:
		return &tools.SkillTool{Name: t.name, Text: t.skill}, nil
	}
	return nil, fmt.Errorf("tool '%s' has unknown kind %q", t.name, t.kind)
}

// logged reports failed tool calls to the run's diagnostics: the capsule
// receives the error as a value and may swallow it, but an operator
// watching a deadline or memory cap being hit should see it.
type logged struct {
	name string
	tool tools.Tool
	log  *slog.Logger
}

func (l logged) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	l.log.Debug("calling tool", "tool", l.name)
	r, err := l.tool.Invoke(ctx, in)
	if err != nil {
		level := slog.LevelInfo
		var te *tools.ToolError
		if errors.As(err, &te) && (te.Kind == tools.ToolDeadline || te.Kind == tools.ToolResourceLimit) {
			level = slog.LevelWarn
		}
		l.log.Log(ctx, level, "tool call failed", "tool", l.name, "err", err.Error())
	}
	return r, err
}

// pathEnv is the runtime's launch-time PATH, which binary lookup and the
// Landlock exec grants share (security.md §7).
func pathEnv(o *Options) string {
	v, _ := o.Getenv("PATH")
	return v
}
