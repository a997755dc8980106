package launch

import (
	"fmt"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/remote/mcp"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// AgentTools are what an agent capsule's loop calls: its inference driver
// and its staged tools, each built exactly as a script capsule's tools are
// (a fresh store per call, the artifact's own grants clamped to the
// ceiling, the runtime env including the inference vars, its limits).
type AgentTools struct {
	// Driver is the inference.driver.artifact component.
	Driver tools.Tool
	// CompactionDriver is the same driver, grants and credential path
	// under inference.compaction.driver_config laid over its config, for
	// hooks' run-inference calls made while serving on-compaction; nil
	// when the manifest sets no overlay (such calls use Driver).
	CompactionDriver tools.Tool
	// Tools are the staged tool artifacts by name (WASM and native);
	// Allowlist their names in declaration order.
	Tools     tools.Tools
	Allowlist []string
	// Shell runs the capabilities.shell.allow binaries (nil when the
	// capsule allows none).
	Shell tools.ShellRunner
	// MCP are the capsule's MCP servers, not yet started (nil when it
	// declares none): the session starts them before its first task and
	// closes them when it ends.
	MCP *mcp.Servers
}

// NewAgentTools prepares the driver and tools of the staged agent capsule
// opts.Staged. Any failure is a coded error: the capsule cannot run.
func NewAgentTools(opts Options) (*AgentTools, error) {
	o := opts.withDefaults()
	inf := o.Staged.Capsule.Inference
	if inf == nil || inf.Transport != "http" || inf.Driver == nil {
		return nil, &diag.Error{Code: CodeRun,
			Msg:  "inference driver is not configured: a transport: http capsule reaches its model through a WASM driver",
			Hint: "add inference.driver.artifact naming a runtime: driver entry of artifacts, or use transport: process with inference.command"}
	}
	linker, tb, shell, err := newAgentToolbox(&o)
	if err != nil {
		return nil, err
	}
	servers, err := newMCP(&o)
	if err != nil {
		return nil, &diag.Error{Code: CodeIO, Err: err, Msg: err.Error()}
	}
	name := inf.Driver.Artifact
	for _, a := range o.Staged.Artifacts {
		if a.Name != name || a.Role != stage.RoleDriver || a.Kind != stage.KindWasm {
			continue
		}
		cred, err := driverCredential(inf, a)
		if err != nil {
			return nil, &diag.Error{Code: CodeRun, Err: err, Msg: err.Error()}
		}
		spec := toolSpec{name: a.Name, kind: a.Kind, component: a.Component, grants: a.Grants, credential: cred}
		if inf.Driver.RawAPIKey {
			spec.rawKey = inf.APIKey
		}
		driver, err := newDriver(&o, linker, spec)
		if err != nil {
			return nil, err
		}
		at := &AgentTools{Driver: driver, Tools: tb.tools, Allowlist: tb.allowlist, Shell: shell, MCP: servers}
		config, overlay, err := inf.CompactionDriverConfig()
		if err != nil {
			return nil, &diag.Error{Code: CodeRun, Err: err, Msg: err.Error()}
		}
		if overlay {
			spec.driverConfig = &config
			if at.CompactionDriver, err = newDriver(&o, linker, spec); err != nil {
				return nil, err
			}
		}
		return at, nil
	}
	return nil, &diag.Error{Code: CodeRun,
		Msg:  fmt.Sprintf("inference driver '%s' is not staged as a WASM driver", name),
		Hint: fmt.Sprintf("declare '%s' in artifacts with runtime: driver and install it (mur install)", name)}
}

// newDriver is the driver tool the loop (or a hook's run-inference)
// calls: the session's secrets scrubbed from its answers, then its
// failures logged (so the log line is scrubbed too).
func newDriver(o *Options, linker *component.Linker, spec toolSpec) (tools.Tool, error) {
	d, err := newTool(o, linker, spec)
	if err != nil {
		return nil, &diag.Error{Code: CodeIO, Err: err, Msg: err.Error()}
	}
	return logged{name: spec.name, tool: redacting{tool: d, secrets: o.Staged.Secrets()}, log: o.Log}, nil
}

// newAgentToolbox is what every agent capsule's loop dispatches to, for
// either transport: the staged tools and the shell runner, on one tool
// linker (which a driver shares).
func newAgentToolbox(o *Options) (*component.Linker, *toolbox, tools.ShellRunner, error) {
	linker, err := host.NewToolLinker()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("linking the tool host: %w", err)
	}
	tb, err := newToolbox(o, linker)
	if err != nil {
		return nil, nil, nil, &diag.Error{Code: CodeIO, Err: err, Msg: err.Error()}
	}
	shell, err := newShell(o)
	if err != nil {
		return nil, nil, nil, &diag.Error{Code: CodeIO, Err: err, Msg: err.Error()}
	}
	return linker, tb, shell, nil
}
