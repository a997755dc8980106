package telemetry

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/mur-go/mur/internal/format/manifest"
)

// mur-go's own attributes, beside the GenAI semantic conventions'.
const (
	attrSessionID     = attribute.Key("murmur.session.id")
	attrTaskID        = attribute.Key("murmur.task.id")
	attrTaskSource    = attribute.Key("murmur.task.source")
	attrTaskStatus    = attribute.Key("murmur.task.exit_status")
	attrTaskTurns     = attribute.Key("murmur.task.turns")
	attrTurn          = attribute.Key("murmur.turn")
	attrDecision      = attribute.Key("murmur.inference.decision")
	attrUsageReported = attribute.Key("murmur.usage.reported")
	attrToolKind      = attribute.Key("murmur.tool.kind")
	attrToolStatus    = attribute.Key("murmur.tool.status")
	attrToolSignal    = attribute.Key("murmur.tool.signal")
	attrHookName      = attribute.Key("murmur.hook.name")
	attrHookEvent     = attribute.Key("murmur.hook.event")
	attrCompaction    = attribute.Key("murmur.compaction.status")
	attrTokensBefore  = attribute.Key("murmur.compaction.tokens_before")
)

// error.type values mur-go reports (the conventions ask each
// instrumentation to list its own).
const (
	errDriver    = "driver_error" // a model call failed or was refused
	errTool      = "tool_error"   // a tool answered an error (or exited non-zero)
	errCancelled = "cancelled"    // a cancellation cut the step short
	errHook      = "hook_error"   // a hook returned or raised an error
	errUnended   = "unfinished"   // still open when the session ended
	// A task that did not end ok has its exit status as error.type:
	// failed, cancelled, reopen_budget_exhausted.
)

// identityAttrs are what every span of an agent session says of the
// agent: its name, version and instance, the model and who serves it.
type identityAttrs struct {
	agent    []attribute.KeyValue // invoke_agent's
	model    []attribute.KeyValue // chat's
	session  attribute.KeyValue
	name     string
	provider string
}

func newIdentityAttrs(id Identity) identityAttrs {
	c := id.Capsule
	a := identityAttrs{name: c.Name, session: attrSessionID.String(id.SessionID)}
	a.agent = []attribute.KeyValue{semconv.GenAIAgentName(c.Name), semconv.GenAIAgentID(id.SessionID), a.session}
	if c.Version != "" {
		a.agent = append(a.agent, semconv.GenAIAgentVersion(c.Version))
	}
	inf := c.Inference
	if inf == nil {
		return a
	}
	a.provider = providerName(inf)
	a.agent = append(a.agent, semconv.GenAIProviderNameKey.String(a.provider))
	a.model = []attribute.KeyValue{semconv.GenAIProviderNameKey.String(a.provider)}
	if inf.Model != "" {
		a.agent = append(a.agent, semconv.GenAIRequestModel(inf.Model))
	}
	if u, err := url.Parse(inf.Endpoint); err == nil && inf.Transport != "process" && u.Hostname() != "" {
		a.model = append(a.model, semconv.ServerAddress(u.Hostname()))
		port := u.Port()
		if port == "" && u.Scheme == "https" {
			port = "443"
		} else if port == "" {
			port = "80"
		}
		if p, err := strconv.Atoi(port); err == nil {
			a.model = append(a.model, semconv.ServerPort(p))
		}
	}
	return a
}

// providerName is gen_ai.provider.name as well as mur can tell: the
// agent CLI's maker under transport: process; the first-party driver's
// API, and for the OpenAI-compatible driver the well-known hosts;
// otherwise the driver's artifact name (the conventions allow a value of
// one's own where none of theirs applies).
func providerName(inf *manifest.Inference) string {
	if inf.Transport == "process" {
		switch path.Base(inf.Command) {
		case "claude":
			return "anthropic"
		case "codex":
			return "openai"
		}
		return path.Base(inf.Command)
	}
	if inf.Driver == nil {
		return "unknown"
	}
	switch inf.Driver.Artifact {
	case "anthropic":
		return "anthropic"
	case "openai-compatible":
		host := ""
		if u, err := url.Parse(inf.Endpoint); err == nil {
			host = strings.ToLower(u.Hostname())
		}
		for suffix, name := range map[string]string{"api.openai.com": "openai", "api.groq.com": "groq",
			"api.deepseek.com": "deepseek", "api.mistral.ai": "mistral_ai", "api.x.ai": "x_ai", "api.perplexity.ai": "perplexity"} {
			if host == suffix {
				return name
			}
		}
	}
	return inf.Driver.Artifact
}
