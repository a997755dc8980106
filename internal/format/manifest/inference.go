package manifest

import (
	"encoding/json"
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

var (
	inferenceKeys  = []string{"transport", "endpoint", "model", "api_key", "command", "system_prompt", "system_prompt_file", "system_prompt_artifact", "driver", "provider", "compaction", "max_turns", "max_task_reopens", "max_tokens", "retry", "max_session_tokens"}
	driverKeys     = []string{"artifact", "config", "raw_api_key"}
	compactionKeys = []string{"threshold", "model", "system_prompt", "system_prompt_file", "dump_summaries", "max_tokens", "driver_config"}
)

// Runtime defaults for inference values the manifest leaves out.
const (
	DefaultMaxTurns            = 10
	DefaultMaxTaskReopens      = 1
	DefaultMaxTokens           = 8192 // sent to the driver when max_tokens is absent
	DefaultCompactionThreshold = 0.98
)

// Inference is the `inference:` block of an agent capsule.
type Inference struct {
	Transport string // "http" (WASM driver) or "process" (CLI subprocess)
	Endpoint  string // http only
	Model     string
	// APIKey is the resolved key (after ${VAR}); HasAPIKey distinguishes
	// "set to empty" from "absent"; APIKeyVar names the variable it came
	// from ("" for a literal).
	APIKey    string
	HasAPIKey bool
	APIKeyVar string
	Driver    *Driver // http only
	Command   string  // process only

	// At most one of the three prompt sources is set (all trimmed).
	SystemPrompt         string
	SystemPromptFile     string
	SystemPromptArtifact string

	Compaction     *Compaction
	MaxTurns       uint32 // default 10
	MaxTaskReopens uint32 // default 1; 0 disables reopening
	MaxTokens      *uint32
	// Retry is inference.retry; nil retries nothing (beyond Murmur 0.2.0).
	Retry *Retry
	// MaxSessionTokens is inference.max_session_tokens, the spend
	// ceiling; nil is none (beyond Murmur 0.2.0).
	MaxSessionTokens *uint64
	Pos              Pos
}

// EffectiveMaxTokens is max_tokens or the runtime default.
func (i *Inference) EffectiveMaxTokens() uint32 {
	if i.MaxTokens != nil {
		return *i.MaxTokens
	}
	return DefaultMaxTokens
}

// Driver is inference.driver (or the legacy inference.provider).
type Driver struct {
	Artifact string
	// Config is the driver config as compact JSON (keys sorted), the value
	// of MURMUR_INFERENCE_DRIVER_CONFIG; "" when absent.
	Config string
	// RawAPIKey (raw_api_key, beyond Murmur) hands the driver the resolved
	// api_key itself as MURMUR_INFERENCE_API_KEY, for a third-party driver
	// that must sign requests with it. Otherwise every guest sees a
	// placeholder and the host adds the key to the driver's requests to
	// the endpoint (SECURITY.md, "Credentials").
	RawAPIKey bool
}

// Compaction is inference.compaction.
type Compaction struct {
	Threshold        *float32
	Model            *string // verbatim
	SystemPrompt     *string // verbatim, may be ""
	SystemPromptFile string  // trimmed
	DumpSummaries    bool
	// MaxTokens is the output cap of a run-inference call made while a
	// hook serves on-compaction; nil leaves such calls at run-inference's
	// default, so a small inference.max_tokens chosen for agent turns
	// never truncates a summary (beyond Murmur 0.2.0, seed 0.10.0).
	MaxTokens *uint32
	// DriverConfig is the compact JSON object laid over
	// inference.driver.config for those calls (its top-level keys replace
	// the driver config's); "" when absent.
	DriverConfig string
}

// EffectiveThreshold is the threshold or the runtime default.
func (c *Compaction) EffectiveThreshold() float32 {
	if c != nil && c.Threshold != nil {
		return *c.Threshold
	}
	return DefaultCompactionThreshold
}

func (d *decoder) inference(f field, ok bool, env EnvFunc) *Inference {
	o := d.optMap(f, ok, "inference", inferenceKeys)
	if o == nil {
		return nil
	}
	inf := &Inference{Pos: nodePos(f.k), MaxTurns: DefaultMaxTurns, MaxTaskReopens: DefaultMaxTaskReopens}
	bad := func(at *yaml.Node, field, hint, format string, args ...any) {
		d.fail(CodeInvalid, field, at, hint, "invalid inference config for '%s': %s", field, fmt.Sprintf(format, args...))
	}
	str := func(key string) (string, bool, field) {
		ff, fok := o.get(key)
		v, set := d.looseString(ff, fok, "inference."+key)
		return v, set, ff
	}
	at := func(ff field, fallback *yaml.Node) *yaml.Node {
		if ff.v != nil {
			return ff.v
		}
		return fallback
	}

	transport, _, tf := str("transport")
	endpoint, _, ef := str("endpoint")
	model, _, mf := str("model")
	apiKey, apiSet, af := str("api_key")
	command, _, cf := str("command")
	sp, _, spf := str("system_prompt")
	spFile, _, _ := str("system_prompt_file")
	spArt, _, _ := str("system_prompt_artifact")
	inf.SystemPrompt, inf.SystemPromptFile, inf.SystemPromptArtifact = strings.TrimSpace(sp), strings.TrimSpace(spFile), strings.TrimSpace(spArt)

	drvF, drvOK := o.get("driver")
	driver := d.driver(drvF, drvOK, "inference.driver")
	provF, provOK := o.get("provider")
	provider := d.driver(provF, provOK, "inference.provider")
	selF := drvF
	if driver == nil {
		driver, selF = provider, provF
	}

	mtF, mtOK := o.get("max_turns")
	maxTurns, _ := d.optUint(mtF, mtOK, "inference.max_turns", 32)
	mrF, mrOK := o.get("max_task_reopens")
	if v, good := d.optUint(mrF, mrOK, "inference.max_task_reopens", 32); good && v != nil {
		inf.MaxTaskReopens = uint32(*v)
	}
	mkF, mkOK := o.get("max_tokens")
	maxTokens, _ := d.optUint(mkF, mkOK, "inference.max_tokens", 32)
	rtF, rtOK := o.get("retry")
	stF, stOK := o.get("max_session_tokens")

	// compaction → prompt exclusivity → max_turns → transport, as Murmur.
	cpF, cpOK := o.get("compaction")
	inf.Compaction = d.compaction(cpF, cpOK, bad)

	n := 0
	for _, s := range []string{inf.SystemPrompt, inf.SystemPromptFile, inf.SystemPromptArtifact} {
		if s != "" {
			n++
		}
	}
	if n > 1 {
		bad(at(spf, f.k), "inference.system_prompt", "keep one prompt source and remove the others",
			"at most one of system_prompt, system_prompt_file, system_prompt_artifact may be set")
	}
	if maxTurns != nil {
		if *maxTurns == 0 {
			bad(mtF.v, "inference.max_turns", "give a positive number of turns, or remove the key for the default (10)", "must be greater than 0")
		}
		inf.MaxTurns = uint32(*maxTurns)
	}

	inf.Transport = strings.TrimSpace(transport)
	if inf.Transport == "" {
		inf.Transport = "http"
	}
	switch inf.Transport {
	case "http":
		inf.Endpoint = strings.TrimSpace(endpoint)
		if inf.Endpoint == "" {
			bad(at(ef, f.k), "inference.endpoint", "add e.g. `endpoint: https://api.anthropic.com`", "missing required field")
		} else if msg, hint := checkEndpoint(inf.Endpoint); msg != "" {
			bad(ef.v, "inference.endpoint", hint, "%s", msg)
		}
		inf.Model = strings.TrimSpace(model)
		if inf.Model == "" {
			bad(at(mf, f.k), "inference.model", "add e.g. `model: claude-haiku-4-5`", "missing required field")
		}
		if k := strings.TrimSpace(apiKey); apiSet && k != "" {
			d.apiKey(inf, k, af.v, env)
		}
		switch {
		case driver == nil:
			bad(f.k, "inference.driver", "add `driver: {artifact: <driver artifact name>}` naming a runtime: driver entry", "missing required field")
		case driver.Artifact == "":
			bad(at(selF, f.k), "inference.driver.artifact", "name the driver artifact, e.g. `artifact: murmur-driver-anthropic`", "missing required field")
		default:
			inf.Driver = driver
		}
		if maxTokens != nil {
			if *maxTokens == 0 {
				bad(mkF.v, "inference.max_tokens", "give a positive token limit, or remove the key for the default (8192)", "must be greater than 0")
			}
			v := uint32(*maxTokens)
			inf.MaxTokens = &v
		}
		inf.Retry = d.retry(rtF, rtOK, bad)
		inf.MaxSessionTokens = d.spendCeiling(stF, stOK, bad)
	case "process":
		const hint = "remove it: transport: process runs a local CLI that brings its own endpoint, key and driver"
		if (drvOK && !isAbsent(drvF.v)) || (provOK && !isAbsent(provF.v)) {
			k := drvF.k
			if k == nil {
				k = provF.k
			}
			bad(k, "inference.driver.artifact", hint, "is not valid with transport: process")
		}
		if strings.TrimSpace(endpoint) != "" {
			bad(ef.k, "inference.endpoint", hint, "is not valid with transport: process")
		}
		if apiSet && strings.TrimSpace(apiKey) != "" {
			bad(af.k, "inference.api_key", hint, "is not valid with transport: process")
		}
		if mkOK && maxTokens != nil {
			bad(mkF.k, "inference.max_tokens", hint, "is not valid with transport: process")
		}
		for _, k := range []struct {
			f    field
			ok   bool
			name string
		}{{rtF, rtOK, "inference.retry"}, {stF, stOK, "inference.max_session_tokens"}} {
			if k.ok && !isAbsent(k.f.v) {
				bad(k.f.k, k.name, hint, "is not valid with transport: process")
			}
		}
		inf.Command = strings.TrimSpace(command)
		if inf.Command == "" {
			bad(at(cf, f.k), "inference.command", "add the CLI to run, e.g. `command: claude`", "missing required field")
		}
		inf.Model = strings.TrimSpace(model)
	default:
		hint := "use `transport: http` (WASM driver) or `transport: process` (CLI subprocess)"
		if s := suggest(inf.Transport, []string{"http", "process"}); s != "" {
			hint = fmt.Sprintf("did you mean '%s'?", s)
		}
		bad(tf.v, "inference.transport", hint, "unknown value '%s'", inf.Transport)
	}
	return inf
}

// apiKey resolves ${NAME}; anything else is a literal key.
func (d *decoder) apiKey(inf *Inference, k string, at *yaml.Node, env EnvFunc) {
	name, ok := envRef(k)
	if !ok {
		inf.APIKey, inf.HasAPIKey = k, true
		if strings.Contains(k, "${") || strings.HasPrefix(k, "$") {
			d.warn(WarnLiteralInterpolation, "inference.api_key", at, "write the whole value as ${NAME} with NAME in A-Z, 0-9 and _",
				"inference.api_key '%s' is not an environment reference and is used literally", k)
		}
		return
	}
	v, set := env(name)
	if !set {
		d.fail(CodeInvalid, "inference.api_key", at,
			fmt.Sprintf("export %s in your shell, or add %s=<key> to the .env file beside murmur.yaml", name, name),
			"inference.api_key references %s but the environment variable is not set", k)
		return
	}
	inf.APIKey, inf.HasAPIKey, inf.APIKeyVar = v, true, name
}

// checkEndpoint allows https anywhere and plain http only to loopback, so
// a manifest cannot send the API key in clear text across the network.
func checkEndpoint(e string) (msg, hint string) {
	u, err := url.Parse(e)
	if err != nil || u.Scheme == "" {
		reason := "relative URL without a base"
		if err != nil {
			reason = err.Error()
			if ue, ok := err.(*url.Error); ok {
				reason = ue.Err.Error()
			}
		}
		return fmt.Sprintf("failed to parse '%s' as a URL: %s", e, reason), "write a full URL such as https://api.example.com"
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "https", "http":
	default:
		return fmt.Sprintf("unsupported scheme '%s' in '%s' — expected http or https", scheme, e), "use https://"
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return fmt.Sprintf("failed to parse '%s' as a URL: empty host", e), "write a full URL such as https://api.example.com"
	}
	if scheme == "https" {
		return "", ""
	}
	// Murmur compares the bracketed IPv6 host text and so rejects
	// http://[::1] although its docs allow it; loopback IPv6 is accepted here.
	if host == "localhost" {
		return "", ""
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return "", ""
	}
	return fmt.Sprintf("'%s' uses plain http:// with non-loopback host '%s' — use https:// for remote endpoints, or http://localhost or a loopback IP literal for local inference", e, host),
		"switch the endpoint to https://"
}

func (d *decoder) driver(f field, ok bool, path string) *Driver {
	o := d.optMap(f, ok, path, driverKeys)
	if o == nil {
		return nil
	}
	drv := &Driver{}
	af, aok := o.get("artifact")
	a, _ := d.looseString(af, aok, path+".artifact")
	drv.Artifact = strings.TrimSpace(a)
	rf, rok := o.get("raw_api_key")
	if raw, good := d.optBool(rf, rok, path+".raw_api_key"); good && raw != nil {
		drv.RawAPIKey = *raw
	}
	cf, cok := o.get("config")
	drv.Config = d.jsonObject(cf, cok, path+".config", "inference.driver.config", "config: {thinking: {budget_tokens: 2048}}")
	return drv
}

// jsonObject is a driver config mapping as compact JSON (keys sorted);
// "" when absent or null. name is the field the message names (Murmur
// names inference.driver.config even under the legacy provider:).
func (d *decoder) jsonObject(f field, ok bool, path, name, example string) string {
	if !ok || isAbsent(f.v) {
		return ""
	}
	if kindOf(f.v) != kindMapping {
		d.fail(CodeInvalid, path, f.v, "write the config as a YAML mapping, e.g. "+example,
			"invalid inference config for '%s': expected mapping/object", name)
		return ""
	}
	budget := maxVisits
	v, err := toJSON(f.v, 0, &budget)
	if err == nil {
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			return string(b)
		}
	}
	d.fail(CodeInvalid, path, f.v, "use string keys and plain values", "invalid inference config for '%s': failed to convert to JSON: %v", name, err)
	return ""
}

func (d *decoder) compaction(f field, ok bool, bad func(*yaml.Node, string, string, string, ...any)) *Compaction {
	o := d.optMap(f, ok, "inference.compaction", compactionKeys)
	if o == nil {
		return nil
	}
	c := &Compaction{}
	tf, tok := o.get("threshold")
	if t, good := d.optFloat(tf, tok, "inference.compaction.threshold"); good && t != nil {
		t32 := float32(*t)
		// NaN fails every comparison and slips through Murmur's range check.
		if math.IsNaN(float64(t32)) || t32 <= 0 || t32 > 1 {
			bad(tf.v, "inference.compaction.threshold", "use a fraction of the context budget such as 0.85",
				"must be in (0.0, 1.0] but got %s", formatF32(t32))
		}
		c.Threshold = &t32
	}
	mf, mok := o.get("model")
	if v, set := d.looseString(mf, mok, "inference.compaction.model"); set {
		c.Model = &v
	}
	sf, sok := o.get("system_prompt")
	if v, set := d.looseString(sf, sok, "inference.compaction.system_prompt"); set {
		c.SystemPrompt = &v
	}
	ff, fok := o.get("system_prompt_file")
	file, fileSet := d.looseString(ff, fok, "inference.compaction.system_prompt_file")
	c.SystemPromptFile = strings.TrimSpace(file)
	if c.SystemPrompt != nil && fileSet {
		bad(sf.k, "inference.compaction.system_prompt", "keep one of the two keys",
			"at most one of inference.compaction.system_prompt, inference.compaction.system_prompt_file may be set")
	}
	df, dok := o.get("dump_summaries")
	if b, _ := d.optBool(df, dok, "inference.compaction.dump_summaries"); b != nil {
		c.DumpSummaries = *b
	}
	kf, kok := o.get("max_tokens")
	if v, good := d.optUint(kf, kok, "inference.compaction.max_tokens", 32); good && v != nil {
		if *v == 0 {
			bad(kf.v, "inference.compaction.max_tokens", "give a positive token limit for compaction summaries, or remove the key for the default (8192)",
				"must be greater than 0")
		}
		n := uint32(*v)
		c.MaxTokens = &n
	}
	cf, cok := o.get("driver_config")
	c.DriverConfig = d.jsonObject(cf, cok, "inference.compaction.driver_config", "inference.compaction.driver_config", "driver_config: {temperature: 0}")
	return c
}

func formatF32(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "NaN"
	case math.IsInf(float64(f), 1):
		return "inf"
	case math.IsInf(float64(f), -1):
		return "-inf"
	}
	return strconv.FormatFloat(float64(f), 'f', -1, 32)
}

// toJSON converts a YAML node to a value encoding/json can marshal, with
// depth and size budgets so aliases cannot blow it up.
func toJSON(n *yaml.Node, depth int, budget *int) (any, error) {
	*budget--
	if *budget < 0 || depth > maxDepth {
		return nil, fmt.Errorf("value too large or too deeply nested")
	}
	n = deref(n)
	if n == nil {
		return nil, nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deref(n.Content[i])
			if k == nil || k.Kind != yaml.ScalarNode || kindOf(k) != kindString {
				return nil, fmt.Errorf("key must be a string")
			}
			v, err := toJSON(n.Content[i+1], depth+1, budget)
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := toJSON(c, depth+1, budget)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		return s, nil
	}
	switch kindOf(n) {
	case kindNull:
		return nil, nil
	case kindBool:
		return strings.ToLower(n.Value) == "true", nil
	case kindNumber:
		if coreInt.MatchString(n.Value) {
			if u, err := parseUint(n.Value, 64); err == "" {
				return u, nil
			}
			if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
				return i, nil
			}
		}
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(s, ".e") {
				s += ".0" // a YAML float stays a float in JSON, as serde_json prints it
			}
			return json.Number(s), nil
		}
		return nil, nil // NaN/inf have no JSON form; serde_json makes them null
	}
	return n.Value, nil
}

// CompactionDriverConfig is the driver config a run-inference call made
// for on-compaction runs under: inference.compaction.driver_config laid
// over inference.driver.config, each top-level key of the overlay
// replacing the driver config's (a nested mapping is replaced whole, so
// the overlay says exactly what it sets). ok is false when there is no
// overlay and such calls run under the driver's own config.
func (i *Inference) CompactionDriverConfig() (config string, ok bool, err error) {
	if i == nil || i.Compaction == nil || i.Compaction.DriverConfig == "" {
		return "", false, nil
	}
	merged := map[string]json.RawMessage{}
	if i.Driver != nil && i.Driver.Config != "" {
		if err := json.Unmarshal([]byte(i.Driver.Config), &merged); err != nil {
			return "", false, fmt.Errorf("inference.driver.config is not a JSON object: %w", err)
		}
	}
	var overlay map[string]json.RawMessage
	if err := json.Unmarshal([]byte(i.Compaction.DriverConfig), &overlay); err != nil {
		return "", false, fmt.Errorf("inference.compaction.driver_config is not a JSON object: %w", err)
	}
	for k, v := range overlay {
		merged[k] = v
	}
	b, err := json.Marshal(merged)
	if err != nil {
		return "", false, fmt.Errorf("encoding the compaction driver config: %w", err)
	}
	return string(b), true, nil
}
