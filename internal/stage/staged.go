package stage

import (
	"sync"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// Staged is a staged capsule: every declared artifact resolved,
// verified, written under tools/ and (for WASM) compiled, and its
// workdirs laid out. Nothing in it needs re-reading from disk: what Stage
// verified (manifests, skill text, binary digests) is kept here and is
// the only version the runtime trusts; the copies under tools/ are for
// people and tools to look at, and guests or native tools may change
// them while the session runs.
//
// Only the run pipeline (package session) holds a Staged. It hands each
// part of the runtime the view that part needs (LoopView, HookView,
// GuestView, the Workdir), so none reaches what it has no business with;
// what may change after staging (an on-stage hook's shell-tool manifest,
// the session's secrets) changes through methods.
type Staged struct {
	// ID is the session id, "ses_" + 32 lowercase hex of a UUIDv7. It is
	// the session dir's name and the trace's session_id.
	ID string
	// Capsule is the capsule manifest as parsed by the caller.
	Capsule *manifest.Capsule
	// ProjectDir is murmur.yaml's directory (lock, project store,
	// relative source: paths).
	ProjectDir string
	// Workdir is the session's directories and the one way the runtime
	// writes into them.
	Workdir

	// Artifacts are the declared artifacts in manifest order, every role.
	Artifacts []*Artifact
	// Ceiling is the capsule-wide grant every tool/driver is clamped to.
	Ceiling Grants
	// Containment is the declared floor and the class achieved.
	Containment Containment

	// LockPath is where murmur.lock is; Pins the entries of every
	// registry-resolved artifact in manifest order, what `mur run` writes
	// as a new murmur.lock when there was none (WriteLockIfAbsent).
	LockPath string
	Pins     []lockfile.Entry

	// Warnings are the non-fatal findings of staging (W-SEC-007 per
	// artifact, W-MAN-002 source+version), for the CLI.
	Warnings []manifest.Warning
	// SecurityWarnings are the host-dependent W-SEC warnings
	// (policy.SecurityWarnings on Containment.Host), for stderr; the
	// launch ones among them are already in logs/bootstrap.log.
	SecurityWarnings []manifest.Warning
	// Notes are non-fatal problems Murmur only prints to stderr (MURMUR.md
	// or the --workdir manifest copy could not be written).
	Notes []string

	// manifestPath is murmur.yaml's absolute path.
	manifestPath string
	// lock is the murmur.lock that was applied (nil when none existed;
	// staging then only checked hashes against the store sidecars).
	lock *lockfile.Lock
	// taskPath is AccessibleDir/task.md when --task wrote it, else "";
	// murmurMDPath SessionDir/MURMUR.md for agent capsules, "" for script
	// capsules (Murmur writes it for agents only).
	taskPath, murmurMDPath string
	// component is the script capsule's own component compiled from
	// Options.CapsuleWasm (nil for agent capsules or when none was given).
	component *component.Component
	// shellTools are the shell.allow binaries in declaration order, with
	// whether staging generated their tools/<bin>/murmur.yaml; only
	// setShellManifest changes one, and only while staging.
	shellTools []ShellTool

	subOnce sync.Once
	sub     *Subprocesses

	// runtimeVersion and clock feed MURMUR.md rewrites.
	runtimeVersion string
	clock          func() time.Time

	// made is what staging created, for Discard.
	made created
}

// Discard removes what staging created (the session directory, and in a
// --workdir the task.md and manifest copy it wrote), for a session
// refused before its capsule started: a refused run leaves nothing
// behind. Nothing of the session may be used afterwards.
func (s *Staged) Discard() { s.made.undo() }

// Role is a capsule entry's role, the `runtime:` key of artifacts[].
type Role string

// Roles, as in the capsule manifest.
const (
	RoleTool   Role = manifest.RuntimeTool
	RoleDriver Role = manifest.RuntimeDriver
	RoleHook   Role = manifest.RuntimeHook
	RoleSkill  Role = manifest.RuntimeSkill
)

// Kind is how a staged artifact runs.
type Kind string

// Kinds of staged payload.
const (
	// KindWasm: a compiled component (tools, drivers, hooks).
	KindWasm Kind = "wasm"
	// KindNative: tools/<name>/<name>, a host binary (implementation: native).
	KindNative Kind = "native"
	// KindSkill: tools/<name>/skill.md, guidance text returned when called.
	// Every local-source artifact is a skill whatever its role.
	KindSkill Kind = "skill"
)

// Artifact is one staged artifact.
type Artifact struct {
	// Name is the name the capsule manifest declares (the tools/ dir name
	// and the tool name the model or capsule calls).
	Name string
	// Version is the version staged: the lock's resolved_version (equal to
	// the declared one, or staging fails), or "local" for source: entries.
	Version string
	// Role is the capsule entry's role; Kind how it runs.
	Role Role
	Kind Kind
	// Ref is the capsule manifest entry.
	Ref *manifest.ArtifactRef

	// Local is a source: entry (never resolved, locked or hashed).
	Local bool
	// SourcePath is the file a local-source skill was read from.
	SourcePath string

	// Dir is SessionDir/tools/<Name>.
	Dir string
	// ManifestPath is Dir/murmur.yaml ("" for local-source artifacts, which
	// get no manifest and so stay out of the tool inventory).
	ManifestPath string
	// Manifest is the artifact's own murmur.yaml, parsed (nil for local
	// source). Its capabilities are never read: only Ref's grant counts.
	Manifest *manifest.Artifact
	// ManifestYAML is that murmur.yaml verbatim, as read from the verified
	// package (nil for local source).
	ManifestYAML []byte

	// Component is the compiled root wasm (KindWasm), WasmEntry its archive
	// entry name.
	Component *component.Component
	WasmEntry string
	// BinaryPath is Dir/<Name>, mode 0755 (KindNative); BinarySHA256 the
	// hex digest of the bytes written there, taken from the verified
	// package, which the native runner checks before every exec.
	BinaryPath   string
	BinarySHA256 string
	// SkillPath is Dir/skill.md (KindSkill); SkillText what was written
	// there, which the skill tool serves.
	SkillPath string
	SkillText string
	// Hook is the validated hook contract (RoleHook only).
	Hook *manifest.HookContract

	// SHA256 is the hex digest of the whole .mur.zip, verified against the
	// store sidecar and the lock before anything was extracted.
	SHA256 string
	// Store is the store root it resolved from (project or global);
	// Platform the variant served (nil: the generic package).
	Store    string
	Platform *artifact.Platform

	// Grants is what this artifact may touch (see Grants).
	Grants Grants
}

// onStageHook reports a hook bound to on-stage, whose scope lies in the
// session workdir rather than the accessible one.
func (a *Artifact) onStageHook() bool {
	return a.Role == RoleHook && a.Hook != nil && a.Hook.Binding == "on-stage"
}

// Grants is an artifact's effective capabilities after applying the
// operator's per-artifact block to the capsule ceiling (security.md §1):
// tools and drivers narrow the ceiling, hooks get only what their entry
// grants, native tools and skills run on the ceiling.
type Grants struct {
	// Network are the HTTP destinations allowed (already clamped for
	// tools/drivers; not clamped for hooks). Empty: no network.
	Network policy.Rules
	// InheritsNetwork is true when the artifact runs on the ceiling's list.
	InheritsNetwork bool
	// Preopen is the host directory to preopen as "." for a WASM guest:
	// the accessible workdir, or <accessible>/<scope> (created by Stage).
	// "" means no directory at all (a hook without a scope).
	Preopen string
	// Scope is the filesystem.scope that produced Preopen ("" = none).
	Scope string
	// Limits are the guest limits (hooks default to a 30 s deadline).
	Limits component.Limits
	// EnvAllow is the ceiling's env.allow: host variables a WASM guest may
	// see (feed to policy.GuestEnv with ShellStripEnv).
	EnvAllow []string
	// ShellStripEnv and ShellBaselineEnv are the ceiling's shell.strip_env
	// and shell.baseline_env (nil = undeclared).
	ShellStripEnv, ShellBaselineEnv []string
	// Resources are the native-subprocess limits (native tools, shell).
	Resources policy.EffectiveResources
}

// ShellTool is one capabilities.shell.allow binary.
type ShellTool struct {
	Name string
	// Interpreter is true for bash, sh, zsh, fish, dash and ksh (command
	// passed with -c); false for binaries given an argv.
	Interpreter bool
	// Generated is true when the runtime wrote tools/<Name>/murmur.yaml:
	// staging's generated manifest, or an on-stage hook's over it
	// (setShellManifest); false when a staged artifact already provided
	// one.
	Generated bool
	// ManifestYAML is what the runtime last wrote there (nil when not
	// Generated), as manage.describe shows it.
	ManifestYAML []byte
	// Manifest is ManifestYAML as the tool inventory reads it, read when
	// it was written so that nothing reads tools/ back: nil when not
	// Generated or when a hook wrote text that is no tool manifest.
	Manifest *manifest.ToolRecord
}
