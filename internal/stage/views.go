package stage

import (
	"slices"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// The views of a staged capsule: each part of the runtime reads what it
// needs of the staging through one of these, built by the Staged, and
// nothing else of it. A view is a copy; what may still change after
// staging changes through a method.

// LoopView is what the agent loop reads of a staged agent capsule.
type LoopView struct {
	// ID is the session id (the trace's session_id).
	ID string
	// Capsule is the manifest: inference, lifecycle, capabilities.
	Capsule *manifest.Capsule
	// ProjectDir is where a relative system_prompt_file is read from.
	ProjectDir string
	// Containment is what the trace's containment fields report.
	Containment Containment
	// Artifacts and ShellTools are what the tool inventory lists and
	// dispatch calls.
	Artifacts  []*Artifact
	ShellTools []ShellTool
	// Workdir is where the loop reads tasks and writes its files.
	Workdir
	// SecurityWarnings are the launch W-SEC warnings bootstrap.log
	// records, for the trace's session_start.
	SecurityWarnings []manifest.Warning
}

// Loop is the agent loop's view.
func (s *Staged) Loop() LoopView {
	var launch []manifest.Warning
	for _, w := range s.SecurityWarnings {
		if policy.InBootstrapLog(w) {
			launch = append(launch, w)
		}
	}
	return LoopView{ID: s.ID, Capsule: s.Capsule, ProjectDir: s.ProjectDir, Containment: s.Containment,
		Artifacts: s.Artifacts, ShellTools: slices.Clone(s.shellTools), Workdir: s.Workdir, SecurityWarnings: launch}
}

// HookView is what the lifecycle hooks' runtime reads of a staged
// capsule: the hook artifacts with their grants, the manifest's
// inference and shell.allow, and the workdirs its hooks are rooted in.
type HookView struct {
	Capsule   *manifest.Capsule
	Artifacts []*Artifact
	Workdir
	// SetShellManifest records the tool manifest an on-stage hook wrote
	// over tools/<name>/murmur.yaml, read once, the way the tool
	// inventory lists it (Staged.setShellManifest). It is set only in the
	// view staging hands to Options.OnStage: once staging is over, the
	// loop and the tools hold their own copies of the shell tools.
	SetShellManifest func(name string, content []byte) error
}

// Hooks is the hook runtime's view for the session's events. An on-stage
// hook's manifests are written through the view Options.OnStage gets.
func (s *Staged) Hooks() HookView {
	return HookView{Capsule: s.Capsule, Artifacts: s.Artifacts, Workdir: s.Workdir}
}

// onStageView is the hooks' view while staging, through which an
// on-stage hook's write-manifests output reaches the shell tools.
func (s *Staged) onStageView() HookView {
	v := s.Hooks()
	v.SetShellManifest = s.setShellManifest
	return v
}

// GuestView is what starts a staged capsule's guests reads of it: the
// script capsule's own store and host interfaces, and every tool, driver
// and shell command of either kind of capsule, each under its grants.
type GuestView struct {
	// ID is the session id the guests are told (MURMUR_SESSION_ID).
	ID string
	// Capsule is the manifest: name, version, inference, capabilities.
	Capsule *manifest.Capsule
	// Component is the script capsule's own component when staging
	// compiled it (nil: compile the file the launcher is given).
	Component *component.Component
	// Artifacts are the staged artifacts with their grants; ShellTools
	// the shell.allow binaries; Ceiling the capsule-wide grant.
	Artifacts  []*Artifact
	ShellTools []ShellTool
	Ceiling    Grants
	// LockPath is the murmur.lock a runtime pull pins into.
	LockPath string
	// Workdir is the guests' "." and the session's files.
	Workdir
	// Subprocesses is how native subprocesses are contained.
	Subprocesses *Subprocesses
}

// Guests is the view of what starts the capsule's guests.
func (s *Staged) Guests() GuestView {
	return GuestView{ID: s.ID, Capsule: s.Capsule, Component: s.component, Artifacts: s.Artifacts,
		ShellTools: slices.Clone(s.shellTools), Ceiling: s.Ceiling, LockPath: s.LockPath, Workdir: s.Workdir,
		Subprocesses: s.subprocesses()}
}
