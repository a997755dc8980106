// Package manifest reads murmur.yaml in both of its roles: the capsule
// manifest (what `mur run` executes) and the artifact manifest (what sits at
// the root of a .mur.zip). It follows Murmur's rules key for key and code
// for code, but reports every problem it can find with its line and column,
// warns about keys it does not know (Murmur silently ignores them), and
// refuses YAML 1.1 booleans (yes/on) instead of guessing.
//
// The package never prints: warnings are returned as values, and the
// checks Murmur makes later (network rule syntax, scopes, host-dependent
// security warnings) are exposed as functions the staging code calls.
package manifest

import "go.yaml.in/yaml/v3"

// FileName is the manifest's name in a project and inside a .mur.zip. The
// older "manifest.yaml" is not recognised anywhere.
const FileName = "murmur.yaml"

// Role says which of the two schemas a murmur.yaml follows.
type Role int

const (
	// RoleAuto detects the role: a top-level `runtime:` key marks an
	// artifact manifest (it is required there and meaningless in a capsule).
	RoleAuto Role = iota
	RoleCapsule
	RoleArtifact
)

func (r Role) String() string {
	switch r {
	case RoleCapsule:
		return "capsule"
	case RoleArtifact:
		return "artifact"
	}
	return "auto"
}

// Artifact roles (the `runtime:` key).
const (
	RuntimeTool   = "tool"
	RuntimeDriver = "driver"
	RuntimeHook   = "hook"
	RuntimeSkill  = "skill"
)

// Pos is a 1-based source position; zero when unknown.
type Pos struct{ Line, Column int }

func nodePos(n *yaml.Node) Pos {
	l, c := pos(n)
	return Pos{l, c}
}

// File is a parsed murmur.yaml. Exactly one of Capsule and Artifact is set.
type File struct {
	// Path is the file as given to Load or Parse; Dir is its directory
	// (the project dir for a capsule), "" for Parse without a path.
	Path string
	Dir  string
	Role Role

	Capsule  *Capsule
	Artifact *Artifact

	// DotEnvPath is the .env file Load layered under the process
	// environment ("" if none); DotEnv holds its entries in file order.
	DotEnvPath string
	DotEnv     []EnvVar

	env EnvFunc
}

// LookupEnv resolves a variable the way the manifest saw it: the process
// environment first, then the .env file. Guests' env.allow lookups should
// use this so a .env value reaches them exactly as in Murmur.
func (f *File) LookupEnv(name string) (string, bool) {
	if f == nil || f.env == nil {
		return "", false
	}
	return f.env(name)
}

// Capsule is the capsule manifest (`mur run`, `mur doctor`, `mur install`).
type Capsule struct {
	Name    string
	Version string
	// MurVersion is the CLI release the capsule asks for; "" = any.
	MurVersion string

	Artifacts []ArtifactRef
	// Capabilities is the capsule-wide ceiling; nil when the block is
	// absent (its accessors are nil-safe and return the defaults).
	Capabilities *Capabilities

	// InternalPort is the A2A server port; nil = OS-assigned.
	InternalPort *uint16
	// ContextMaxTokens is the session token budget; nil = no compaction.
	ContextMaxTokens *uint32
	OtelEndpoint     string
	Eval             *EvalConfig
	// IncludeToolOutput is trace.include_tool_output.
	IncludeToolOutput bool
	Lifecycle         Lifecycle
	// Inference is nil for a script capsule.
	Inference *Inference
	// MCP is the mcp block (a mur-go extension); nil when absent.
	MCP *MCP
	// Registry holds registry.* as written; only `mur install`/`mur publish`
	// interpret it (see RegistrySettings.Resolve).
	Registry RegistrySettings

	Pos Pos
}

// IsAgent reports whether the capsule runs the agent loop (it has an
// inference block) rather than a script component.
func (c *Capsule) IsAgent() bool { return c.Inference != nil }

// Artifact finds a declared artifact by name (the first, as Murmur does).
func (c *Capsule) Artifact(name string) (*ArtifactRef, bool) {
	for i := range c.Artifacts {
		if c.Artifacts[i].Name == name {
			return &c.Artifacts[i], true
		}
	}
	return nil, false
}

// ArtifactRef is one entry of the capsule's `artifacts:` list.
type ArtifactRef struct {
	Name    string
	Version string // "local" for local-source entries
	Runtime string // tool, driver, hook or skill
	// Source is the local path (relative to the manifest dir) when set;
	// such entries are never installed or locked.
	Source        string
	LocalSource   bool
	PromptPayload bool
	// Capabilities is the operator's per-artifact grant; nil = none.
	Capabilities *Capabilities
	// OnOverflow is "drop" (default) or "block"; hooks only.
	OnOverflow string
	Pos        Pos
}

// ModelVisible reports whether the artifact appears in the model's tool
// inventory (tools and skills do; drivers and hooks do not).
func (a *ArtifactRef) ModelVisible() bool {
	return a.Runtime == RuntimeTool || a.Runtime == RuntimeSkill
}

// IsLocal reports a local-source entry (never installed or locked).
func (a *ArtifactRef) IsLocal() bool { return a.Source != "" }

// Lifecycle is the task-acceptance configuration, defaults filled in.
type Lifecycle struct {
	TaskAcceptance string // none, single (default), queue
	AfterTask      string // exit (default), sleep
	QueueDepth     uint64 // default 1
	// InputTimeoutSecs is nil when a request for input waits forever.
	InputTimeoutSecs *uint64
	Conversation     string // stateless (default), threaded
}

// DefaultLifecycle is what an absent `lifecycle:` block means.
func DefaultLifecycle() Lifecycle {
	return Lifecycle{TaskAcceptance: "single", AfterTask: "exit", QueueDepth: 1, Conversation: "stateless"}
}

// EvalConfig is observability.eval.
type EvalConfig struct {
	DatasetID *string
	Scorers   []Scorer
}

// Scorer is one eval scorer with its defaults filled in.
type Scorer struct {
	Type     string   `json:"type"`
	Name     string   `json:"name"`
	Max      uint64   `json:"max,omitempty"`
	Expected []string `json:"expected,omitempty"`
}

// RegistrySettings is the capsule's `registry:` block as written.
type RegistrySettings struct {
	Default   string
	RemoteURL string
	Pos       Pos
}
