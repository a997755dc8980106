package manifest

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/artifactname"
	"github.com/mur-go/mur/internal/base/diag"
)

var artifactKeys = []string{"name", "version", "runtime", "implementation", "execution", "requires_files",
	"description", "input_schema", "input", "output_schema", "tags", "binding", "execution_mode", "commit_policy", "capabilities", "credential"}

// Packaging types (the registry's `runtime` metadata).
const (
	PackagingWasm   = "wasm"
	PackagingNative = "native"
	PackagingStatic = "static"
)

// Artifact is an artifact manifest: the murmur.yaml at the root of a
// .mur.zip, or in the source directory `mur build` packs. Beyond the
// required keys, everything is read leniently (wrong types are ignored)
// because the runtime only consumes it for descriptions and schemas.
type Artifact struct {
	Name    string
	Version string
	// Runtime is the role: tool, driver, hook, skill (legacy wasm and
	// native still parse).
	Runtime string
	// Implementation is "native" for a host-binary tool; anything else
	// (or "") means wasm.
	Implementation string
	// Execution is the declared packaging type, lower-cased; "" = derive.
	Execution string
	// RequiresFiles lists the files `mur build` packs besides the
	// manifest; defaulted to [skill.md] for skills unless declared.
	RequiresFiles []string

	Description string // trimmed
	// InputSchema is the tool's JSON parameters schema as compact JSON.
	InputSchema  string
	OutputSchema string // "" when absent
	Tags         []string

	// Hook contract keys as written ("" when absent or not a string);
	// see HookContract.
	Binding, ExecutionMode, CommitPolicy string

	// Credential (beyond Murmur, drivers only) is how the provider takes
	// the API key; nil when undeclared.
	Credential *Credential
}

// Credential is a driver's `credential:` block: the host sets header
// Header to Prefix + the resolved inference.api_key on the driver's
// requests to the endpoint, e.g. {header: Authorization, prefix: "Bearer "}
// or {header: x-api-key}.
type Credential struct {
	Header, Prefix string
}

// DefaultInputSchema is what a tool without a usable schema gets.
const DefaultInputSchema = `{"type":"object","properties":{}}`

// PackagingType is the registry packaging type: execution if declared;
// else static for skills, native for native tools, wasm otherwise.
func (a *Artifact) PackagingType() string {
	switch {
	case a.Execution != "":
		return a.Execution
	case a.Runtime == RuntimeSkill:
		return PackagingStatic
	case a.Runtime == RuntimeTool && a.Implementation == "native":
		return PackagingNative
	}
	return PackagingWasm
}

// IsNative reports a native-implementation tool (payload bin/<name>).
func (a *Artifact) IsNative() bool {
	return a.Runtime == RuntimeTool && a.Implementation == "native"
}

func (d *decoder) artifact(root *yaml.Node) *Artifact {
	a := &Artifact{InputSchema: DefaultInputSchema}
	if kindOf(root) != kindMapping {
		d.typeError("<root>", root, "mapping")
		return a
	}
	o := d.object(root, "", artifactKeys)
	required := func(key, hint string) string {
		f, ok := o.get(key)
		if !ok {
			d.fail(CodeMissingField, key, root, hint, "missing required field '%s'", key)
			return ""
		}
		if kindOf(f.v) != kindString {
			d.typeError(key, f.v, "string")
			return ""
		}
		return deref(f.v).Value
	}
	a.Name = required("name", "add `name: my-tool` (lowercase letters, digits and '-')")
	a.Version = required("version", "add `version: \"0.1.0\"` (quote it so YAML keeps it a string)")
	a.Runtime = required("runtime", "add `runtime: tool` (or driver, hook, skill)")
	a.Implementation = lenientString(o, "implementation")

	if f, ok := o.get("execution"); ok {
		if kindOf(f.v) != kindString {
			d.typeError("execution", f.v, "string")
		} else {
			v := deref(f.v).Value
			switch lv := strings.ToLower(v); lv {
			case PackagingWasm, PackagingNative, PackagingStatic:
				a.Execution = lv
			default:
				d.fail(CodeInvalid, "execution", f.v, "use wasm, native or static, or remove the key to derive it",
					"field 'execution' has invalid type (expected one of: wasm, native, static, got %s)", v)
			}
		}
	}

	if f, ok := o.get("requires_files"); ok {
		n := deref(f.v)
		if n == nil || n.Kind != yaml.SequenceNode {
			d.typeError("requires_files", f.v, "sequence of strings")
		} else {
			a.RequiresFiles = []string{}
			for _, it := range n.Content {
				if kindOf(it) != kindString {
					d.typeError("requires_files", it, "sequence of strings")
					continue
				}
				a.RequiresFiles = append(a.RequiresFiles, deref(it).Value)
			}
		}
	} else if a.Runtime == RuntimeSkill {
		a.RequiresFiles = []string{"skill.md"}
	} else {
		a.RequiresFiles = []string{}
	}

	a.Description = strings.TrimSpace(lenientString(o, "description"))
	schemaKey := "input_schema"
	if _, ok := o.get(schemaKey); !ok {
		schemaKey = "input"
	}
	if s, ok := lenientSchema(o, schemaKey); ok {
		a.InputSchema = s
	}
	a.OutputSchema, _ = lenientSchema(o, "output_schema")
	if f, ok := o.get("tags"); ok {
		if n := deref(f.v); n != nil && n.Kind == yaml.SequenceNode {
			a.Tags = []string{}
			for _, it := range n.Content {
				if kindOf(it) == kindString {
					a.Tags = append(a.Tags, deref(it).Value)
				}
			}
		}
	}
	a.Binding = lenientString(o, "binding")
	a.ExecutionMode = lenientString(o, "execution_mode")
	a.CommitPolicy = lenientString(o, "commit_policy")
	if f, ok := o.get("credential"); ok && kindOf(f.v) == kindMapping {
		c := d.object(f.v, "credential", []string{"header", "prefix"})
		if h := strings.TrimSpace(lenientString(c, "header")); h != "" {
			a.Credential = &Credential{Header: h, Prefix: lenientString(c, "prefix")}
		}
	}
	if f, ok := o.get("capabilities"); ok {
		d.warn(WarnArtifactCapabilities, "capabilities", f.k, "grant capabilities in the capsule's artifacts[] entry for this artifact",
			"'capabilities' in an artifact's own manifest are never read; an artifact cannot grant itself anything")
	}
	return a
}

func lenientString(o *obj, key string) string {
	f, ok := o.get(key)
	if !ok || kindOf(f.v) != kindString {
		return ""
	}
	return deref(f.v).Value
}

// lenientSchema reads a JSON schema given as a JSON string or a YAML
// mapping, returning compact JSON; anything unusable counts as absent.
func lenientSchema(o *obj, key string) (string, bool) {
	f, ok := o.get(key)
	if !ok {
		return "", false
	}
	switch kindOf(f.v) {
	case kindString:
		var v any
		if json.Unmarshal([]byte(deref(f.v).Value), &v) != nil {
			return "", false
		}
		b, err := json.Marshal(v)
		return string(b), err == nil
	case kindMapping:
		budget := maxVisits
		v, err := toJSON(f.v, 0, &budget)
		if err != nil {
			return "", false
		}
		b, err := json.Marshal(v)
		return string(b), err == nil
	}
	return "", false
}

// Hook bindings, execution modes and commit policies.
var (
	HookBindings       = []string{"on-stage", "on-session-start", "on-task-start", "on-inference", "on-tool-call", "on-shell", "on-compaction", "on-task-end", "on-session-end"}
	HookExecutionModes = []string{"blocking", "async"}
	HookCommitPolicies = []string{"none", "replace-context", "write-manifests", "reopen-task"}
)

// HookContract is a hook artifact's validated contract.
type HookContract struct {
	// Binding is the one event the hook runs on; "" = every session event
	// except on-stage.
	Binding       string
	ExecutionMode string // blocking (default) or async
	CommitPolicy  string // none (default), replace-context, write-manifests, reopen-task
}

// honoredPolicy is the commit policy each binding honours ("" = none).
func honoredPolicy(binding string) string {
	switch binding {
	case "on-stage":
		return "write-manifests"
	case "on-compaction":
		return "replace-context"
	case "on-task-end":
		return "reopen-task"
	}
	return ""
}

// HookContract validates the hook keys (read at staging; Murmur reports a
// failure as "hook <name>@<ver> invalid config: <message>"). The first
// failing rule wins, in Murmur's order.
func (a *Artifact) HookContract() (HookContract, error) {
	hc := HookContract{Binding: a.Binding, ExecutionMode: a.ExecutionMode, CommitPolicy: a.CommitPolicy}
	if hc.ExecutionMode == "" {
		hc.ExecutionMode = "blocking"
	}
	if hc.CommitPolicy == "" {
		hc.CommitPolicy = "none"
	}
	fail := func(path, format string, args ...any) (HookContract, error) {
		return HookContract{}, diag.New(CodeIO, "hook %s@%s invalid config: %s", a.Name, a.Version, fmt.Sprintf(format, args...)).
			At(At("", path, 0, 0))
	}
	if hc.Binding != "" && !contains(HookBindings, hc.Binding) {
		return fail("binding", "unknown binding '%s'; expected: %s", hc.Binding, strings.Join(HookBindings, ", "))
	}
	if !contains(HookExecutionModes, hc.ExecutionMode) {
		return fail("execution_mode", "unknown execution_mode '%s'; expected: blocking, async", hc.ExecutionMode)
	}
	if !contains(HookCommitPolicies, hc.CommitPolicy) {
		return fail("commit_policy", "unknown commit_policy '%s'; expected: %s", hc.CommitPolicy, strings.Join(HookCommitPolicies, ", "))
	}
	if hc.ExecutionMode == "async" && hc.CommitPolicy != "none" {
		return fail("commit_policy", "async-with-commit not supported: execution_mode 'async' requires commit_policy 'none' (got '%s')", hc.CommitPolicy)
	}
	if hc.Binding == "on-stage" && hc.ExecutionMode == "async" {
		return fail("execution_mode", "on-stage hooks must be blocking; execution_mode 'async' is not valid for binding 'on-stage'")
	}
	if hc.Binding != "" && hc.CommitPolicy != "none" {
		if h := honoredPolicy(hc.Binding); h != hc.CommitPolicy {
			if h == "" {
				h = "none"
			}
			suffix := ""
			if hc.Binding == "on-inference" {
				suffix = " (on-inference commits an 'artifact' output, which has no commit_policy spelling)"
			}
			return fail("commit_policy", "commit_policy '%s' is not valid for binding '%s'; binding '%s' honors commit_policy '%s'%s",
				hc.CommitPolicy, hc.Binding, hc.Binding, h, suffix)
		}
	}
	return hc, nil
}

// MaxArtifactNameLen is the longest name, in characters, `mur build` accepts.
const MaxArtifactNameLen = artifactname.MaxLen

// ValidateArtifactName applies `mur build`'s name rule (E-BLD-001):
// 1–100 chars of [a-z0-9-], not starting or ending with '-'.
func ValidateArtifactName(name string) error {
	return artifactname.Check(name)
}
