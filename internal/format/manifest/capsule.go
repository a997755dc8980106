package manifest

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
)

var (
	capsuleKeys     = []string{"name", "version", "mur_version", "registry", "artifacts", "capabilities", "network", "context", "observability", "trace", "lifecycle", "inference", "mcp"}
	artifactRefKeys = []string{"name", "version", "runtime", "source", "local_source", "prompt_payload", "capabilities", "on_overflow"}
	lifecycleKeys   = []string{"task_acceptance", "after_task", "queue_depth", "input_timeout_secs", "conversation"}
	evalKeys        = []string{"dataset_id", "scorers"}
	scorerKeys      = []string{"type", "name", "max", "expected"}
	scorerTypes     = []string{"exit_ok", "max_turns", "max_tokens", "tool_sequence", "llm_judge"}
	artifactRoles   = []string{RuntimeTool, RuntimeDriver, RuntimeHook, RuntimeSkill}
)

// capsule decodes the capsule role. Errors are ordered the way Murmur would
// meet them: type errors (its typed decoder fails first), then missing
// name/version, then semantic checks.
func (d *decoder) capsule(root *yaml.Node, env EnvFunc) *Capsule {
	c := &Capsule{Lifecycle: DefaultLifecycle(), Pos: nodePos(root)}
	defer d.sortCapsuleErrors()
	if !isAbsent(root) && kindOf(root) != kindMapping {
		d.typeError("<root>", root, "a mapping")
		return c
	}
	o := d.object(root, "", capsuleKeys)

	f, ok := o.get("name")
	c.Name, _ = d.looseString(f, ok, "name")
	f, ok = o.get("version")
	c.Version, _ = d.looseString(f, ok, "version")
	f, ok = o.get("mur_version")
	if v, _ := d.looseString(f, ok, "mur_version"); strings.TrimSpace(v) != "" {
		c.MurVersion = v
	}

	f, ok = o.get("artifacts")
	items, _ := d.seq(f, ok, "artifacts", "a sequence of artifact entries")
	for i, it := range items {
		if a, good := d.artifactRef(it, i, index("artifacts", i)); good {
			c.Artifacts = append(c.Artifacts, a)
		}
	}

	f, ok = o.get("capabilities")
	c.Capabilities = d.capabilities(f, ok, "capabilities")

	f, ok = o.get("inference")
	c.Inference = d.inference(f, ok, env)
	if inf := c.Inference; inf != nil && inf.SystemPromptArtifact != "" {
		d.checkPromptArtifact(c, o)
	}

	f, ok = o.get("mcp")
	c.MCP = d.mcp(f, ok, c, env)

	f, ok = o.get("context")
	if ctx := d.optMap(f, ok, "context", []string{"max_tokens"}); ctx != nil {
		cf, cok := ctx.get("max_tokens")
		if v, good := d.optUint(cf, cok, "context.max_tokens", 32); good && v != nil {
			if *v == 0 {
				d.fail(CodeInvalid, "context.max_tokens", cf.v, "remove the key to disable compaction, or give a positive token budget",
					"invalid inference config for 'context.max_tokens': must be greater than 0")
			}
			n := uint32(*v)
			c.ContextMaxTokens = &n
		}
	}

	f, ok = o.get("observability")
	if obs := d.optMap(f, ok, "observability", []string{"otel_endpoint", "eval"}); obs != nil {
		of, ook := obs.get("otel_endpoint")
		v, _ := d.looseString(of, ook, "observability.otel_endpoint")
		c.OtelEndpoint = strings.TrimSpace(v)
		of, ook = obs.get("eval")
		c.Eval = d.eval(of, ook)
	}

	f, ok = o.get("trace")
	if tr := d.optMap(f, ok, "trace", []string{"include_tool_output"}); tr != nil {
		tf, tok := tr.get("include_tool_output")
		if b, _ := d.optBool(tf, tok, "trace.include_tool_output"); b != nil {
			c.IncludeToolOutput = *b
		}
	}

	f, ok = o.get("network")
	if nw := d.optMap(f, ok, "network", []string{"internal_port"}); nw != nil {
		nf, nok := nw.get("internal_port")
		if v, good := d.optUint(nf, nok, "network.internal_port", 16); good && v != nil {
			p := uint16(*v)
			c.InternalPort = &p
		}
	}

	f, ok = o.get("lifecycle")
	if lc := d.optMap(f, ok, "lifecycle", lifecycleKeys); lc != nil {
		d.lifecycle(lc, &c.Lifecycle)
	}

	f, ok = o.get("registry")
	c.Registry = registrySettings(f, ok)

	d.required(o, root, "name", c.Name, "add `name: my-capsule` at the top level")
	d.required(o, root, "version", c.Version, "add `version: \"0.1.0\"` at the top level (quote it)")
	return c
}

func (d *decoder) required(o *obj, root *yaml.Node, key, val, hint string) {
	if strings.TrimSpace(val) != "" {
		return
	}
	at := root
	if f, ok := o.get(key); ok {
		if k := kindOf(f.v); k == kindMapping || k == kindSequence || k == kindTagged {
			return // already reported as a type error
		}
		at = f.k
	}
	d.fail(CodeMissingField, key, at, hint, "missing required field '%s'", key)
}

// sortCapsuleErrors puts errors in Murmur's reporting order, stable within
// a code.
func (d *decoder) sortCapsuleErrors() {
	rank := func(e error) int {
		if me, ok := e.(*diag.Error); ok {
			switch me.Code {
			case CodeSyntax:
				return 0
			case CodeMissingField:
				return 1
			}
		}
		return 2
	}
	sort.SliceStable(d.errs, func(i, j int) bool { return rank(d.errs[i]) < rank(d.errs[j]) })
}

// artifactRef decodes one artifacts[] entry. Its semantic checks run in
// Murmur's order and stop at the first failure for that entry (later
// checks depend on earlier ones); other entries are still checked.
func (d *decoder) artifactRef(n *yaml.Node, i int, path string) (ArtifactRef, bool) {
	a := ArtifactRef{Pos: nodePos(n), OnOverflow: "drop"}
	if kindOf(n) != kindMapping {
		d.typeError(path, n, "a mapping")
		return a, false
	}
	before := len(d.errs)
	o := d.object(n, path, artifactRefKeys)
	get := func(k string) (field, bool) { return o.get(k) }

	f, ok := get("name")
	name, _ := d.looseString(f, ok, path+".name")
	f, ok = get("version")
	version, _ := d.looseString(f, ok, path+".version")
	rf, rok := get("runtime")
	runtime, hasRuntime := d.looseString(rf, rok, path+".runtime")
	sf, sok := get("source")
	source, _ := d.looseString(sf, sok, path+".source")
	f, ok = get("local_source")
	localSource, _ := d.optBool(f, ok, path+".local_source")
	f, ok = get("prompt_payload")
	promptPayload, _ := d.optBool(f, ok, path+".prompt_payload")
	of, ook := get("on_overflow")
	onOverflow, hasOverflow := d.looseString(of, ook, path+".on_overflow")
	if len(d.errs) > before {
		return a, false
	}

	bad := func(at *yaml.Node, sub, hint, format string, args ...any) (ArtifactRef, bool) {
		d.fail(CodeInvalid, path+sub, at, hint, "invalid artifact declaration at index %d: %s", i, fmt.Sprintf(format, args...))
		return a, false
	}
	if strings.TrimSpace(name) == "" {
		at := n
		if f, ok := get("name"); ok {
			at = f.v
		}
		return bad(at, ".name", "give the entry a name, e.g. `name: murmur-tool-git`", "missing required field 'name'")
	}
	a.Name = name
	switch {
	case !hasRuntime || runtime == RuntimeTool:
		a.Runtime = RuntimeTool
	case runtime == RuntimeDriver || runtime == RuntimeHook || runtime == RuntimeSkill:
		a.Runtime = runtime
	case runtime == "wasm" || runtime == "native":
		return bad(rf.v, ".runtime", "write `runtime: tool`; `implementation: native` belongs in the artifact's own murmur.yaml",
			"use 'runtime: tool'; implementation is declared in the artifact's own manifest (got '%s')", runtime)
	default:
		hint := "runtime is one of tool, driver, hook, skill"
		if s := suggest(runtime, artifactRoles); s != "" {
			hint = fmt.Sprintf("did you mean '%s'?", s)
		}
		return bad(rf.v, ".runtime", hint, "unknown runtime '%s'; expected one of: tool, driver, hook, skill", runtime)
	}
	a.LocalSource = a.Runtime == RuntimeSkill
	if localSource != nil {
		a.LocalSource = *localSource
	}
	a.PromptPayload = a.Runtime == RuntimeSkill
	if promptPayload != nil {
		a.PromptPayload = *promptPayload
	}
	if strings.TrimSpace(source) != "" {
		a.Source = source
	}
	if a.Source != "" && !a.LocalSource {
		return bad(sf.v, ".source", "add `local_source: true` to the entry, or remove `source:`",
			"artifact '%s' declares 'source:' but does not declare 'local_source: true' (runtime: %s)", name, a.Runtime)
	}
	if a.Source != "" {
		a.Version = "local"
		if strings.TrimSpace(version) != "" {
			vf, _ := get("version")
			d.warn(WarnSourceVersion, path+".version", vf.k, "remove `version:` from local-source entries",
				"artifact '%s' declares both 'source:' and 'version: %s'; version is ignored for local-source skills (using 'local')", name, version)
		}
	} else {
		if strings.TrimSpace(version) == "" {
			at := n
			if f, ok := get("version"); ok {
				at = f.v
			}
			return bad(at, ".version", "pin a version, e.g. `version: \"1.0.0\"`, or point `source:` at a local file",
				"missing required field 'version'")
		}
		a.Version = version
	}
	if cf, ok := get("capabilities"); ok && !isAbsent(cf.v) {
		if a.Runtime == RuntimeSkill {
			return bad(cf.k, ".capabilities", "move the grants to the top-level `capabilities:` block",
				"artifact '%s' declares per-artifact 'capabilities:' but has 'runtime: %s'; per-artifact capabilities are only recognized on 'runtime: hook', 'runtime: tool', and 'runtime: driver' entries — use the capsule-wide top-level 'capabilities:' block instead", name, a.Runtime)
		}
		n := len(d.errs)
		a.Capabilities = d.capabilities(cf, true, path+".capabilities")
		if len(d.errs) > n {
			return a, false
		}
	}
	if hasOverflow {
		if a.Runtime != RuntimeHook {
			return bad(of.k, ".on_overflow", "remove `on_overflow:` from this entry",
				"artifact '%s' declares 'on_overflow:' but has 'runtime: %s'; the key governs an async hook's job queue and is only recognized on 'runtime: hook' entries", name, a.Runtime)
		}
		switch onOverflow {
		case "drop", "block":
			a.OnOverflow = onOverflow
		default:
			return bad(of.v, ".on_overflow", "use `on_overflow: drop` (default) or `on_overflow: block`",
				"artifact '%s' declares unknown on_overflow '%s'; expected: drop, block", name, onOverflow)
		}
	}
	return a, true
}

// checkPromptArtifact runs after artifacts are parsed, as in Murmur.
func (d *decoder) checkPromptArtifact(c *Capsule, root *obj) {
	name := c.Inference.SystemPromptArtifact
	var at *yaml.Node
	if inf, ok := root.get("inference"); ok {
		if m := deref(inf.v); m != nil && m.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(m.Content); i += 2 {
				if m.Content[i].Value == "system_prompt_artifact" {
					at = m.Content[i+1]
				}
			}
		}
	}
	const path = "inference.system_prompt_artifact"
	a, ok := c.Artifact(name)
	if !ok {
		d.fail(CodeInvalid, path, at, fmt.Sprintf("add an artifacts[] entry named '%s' (a skill), or fix the name", name),
			"invalid inference config for '%s': artifact '%s' is not declared in artifacts:", path, name)
		return
	}
	if !a.PromptPayload {
		d.fail(CodeInvalid, path, at, fmt.Sprintf("add `prompt_payload: true` to the '%s' entry, or use a skill", name),
			"invalid inference config for '%s': artifact '%s' (runtime: %s) does not declare 'prompt_payload: true', which system_prompt_artifact requires", path, name, a.Runtime)
	}
}

func (d *decoder) enum(f field, ok bool, path string, allowed []string, dst *string) {
	if !ok || isAbsent(f.v) {
		return
	}
	n := deref(f.v)
	if n == nil || n.Kind != yaml.ScalarNode {
		d.typeError(path, f.v, "one of: "+strings.Join(allowed, ", "))
		return
	}
	if !contains(allowed, n.Value) {
		hint := "use one of: " + strings.Join(allowed, ", ")
		if s := suggest(n.Value, allowed); s != "" {
			hint = fmt.Sprintf("did you mean '%s'?", s)
		}
		d.fail(d.typeC, path, f.v, hint, "field '%s' has invalid value '%s' (expected one of: %s)", path, n.Value, strings.Join(allowed, ", "))
		return
	}
	*dst = n.Value
}

func (d *decoder) lifecycle(o *obj, lc *Lifecycle) {
	f, ok := o.get("task_acceptance")
	d.enum(f, ok, "lifecycle.task_acceptance", []string{"none", "single", "queue"}, &lc.TaskAcceptance)
	f, ok = o.get("after_task")
	d.enum(f, ok, "lifecycle.after_task", []string{"exit", "sleep"}, &lc.AfterTask)
	f, ok = o.get("conversation")
	d.enum(f, ok, "lifecycle.conversation", []string{"stateless", "threaded"}, &lc.Conversation)
	f, ok = o.get("queue_depth")
	if v, good := d.optUint(f, ok, "lifecycle.queue_depth", 64); good && v != nil {
		// Murmur accepts 0 and then crashes on the first queued task; a
		// queue that can hold nothing is a mistake, so say so up front.
		if *v == 0 {
			d.fail(CodeInvalid, "lifecycle.queue_depth", f.v, "use 1 or more, or task_acceptance: single",
				"invalid lifecycle config for 'lifecycle.queue_depth': must be greater than 0")
		}
		lc.QueueDepth = *v
	}
	f, ok = o.get("input_timeout_secs")
	if v, good := d.optUint(f, ok, "lifecycle.input_timeout_secs", 64); good {
		lc.InputTimeoutSecs = v
	}
}

func (d *decoder) eval(f field, ok bool) *EvalConfig {
	o := d.optMap(f, ok, "observability.eval", evalKeys)
	if o == nil {
		return nil
	}
	ev := &EvalConfig{}
	df, dok := o.get("dataset_id")
	if v, set := d.looseString(df, dok, "observability.eval.dataset_id"); set {
		ev.DatasetID = &v
	}
	sf, sok := o.get("scorers")
	items, _ := d.seq(sf, sok, "observability.eval.scorers", "a sequence of scorers")
	for i, it := range items {
		p := index("observability.eval.scorers", i)
		if kindOf(it) != kindMapping {
			d.typeError(p, it, "a mapping")
			continue
		}
		so := d.object(it, p, scorerKeys)
		tf, tok := so.get("type")
		typ, set := d.looseString(tf, tok, p+".type")
		if !set {
			at := it
			if tok {
				at = tf.v
			}
			d.fail(CodeSyntax, p+".type", at, "add `type:` (exit_ok, max_turns, max_tokens, tool_sequence or llm_judge)",
				"missing field 'type' in %s", p)
			continue
		}
		s := Scorer{Type: typ, Name: typ}
		nf, nok := so.get("name")
		if v, set := d.looseString(nf, nok, p+".name"); set {
			s.Name = v
		}
		mf, mok := so.get("max")
		maxv, _ := d.optUint(mf, mok, p+".max", 64)
		ef, eok := so.get("expected")
		s.Expected, _, _ = d.stringList(ef, eok, p+".expected", false)
		switch typ {
		case "max_turns":
			s.Max = 10
			if maxv != nil {
				// Murmur truncates to 32 bits (wrapping); clamp instead.
				s.Max = min(*maxv, 1<<32-1)
			}
		case "max_tokens":
			s.Max = 100000
			if maxv != nil {
				s.Max = *maxv
			}
		case "exit_ok", "llm_judge":
			s.Expected = nil
		case "tool_sequence":
			if s.Expected == nil {
				s.Expected = []string{}
			}
		default:
			hint := "known types: " + strings.Join(scorerTypes, ", ")
			if sg := suggest(typ, scorerTypes); sg != "" {
				hint = fmt.Sprintf("did you mean '%s'?", sg)
			}
			d.warn(WarnUnknownScorer, p+".type", tf.v, hint, "unknown scorer type '%s' — skipping", typ)
			continue
		}
		if typ != "tool_sequence" {
			s.Expected = nil
		}
		ev.Scorers = append(ev.Scorers, s)
	}
	return ev
}

// registrySettings reads registry.* leniently: Murmur's capsule parser
// ignores the block and `mur install` reads it loosely, so a wrong type
// here must not break `mur run`.
func registrySettings(f field, ok bool) RegistrySettings {
	r := RegistrySettings{Pos: nodePos(f.k)}
	n := deref(f.v)
	if !ok || n == nil || n.Kind != yaml.MappingNode {
		return r
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := deref(n.Content[i+1])
		if v == nil || v.Kind != yaml.ScalarNode || kindOf(v) == kindNull {
			continue
		}
		switch n.Content[i].Value {
		case "default":
			r.Default = v.Value
		case "remote_url":
			r.RemoteURL = v.Value
		}
	}
	return r
}

// DefaultRemoteRegistry is where `registry.default: remote` points.
const DefaultRemoteRegistry = "http://localhost:7800"

// Resolve interprets the block for `mur install`/`mur publish`: a
// remote_url (trimmed, trailing '/' removed) wins; else default local
// (the default) or remote. url is "" for the local registry.
func (r RegistrySettings) Resolve() (url string, err error) {
	if u := strings.TrimRight(strings.TrimSpace(r.RemoteURL), "/"); u != "" {
		return u, nil
	}
	switch r.Default {
	case "", "local":
		return "", nil
	case "remote":
		return DefaultRemoteRegistry, nil
	}
	return "", diag.New(CodeIO, "invalid registry.default '%s' (expected local|remote)", r.Default).
		WithHint("use `default: local` or `default: remote`, or set `remote_url:`").
		At(At("", "registry.default", r.Pos.Line, r.Pos.Column))
}
