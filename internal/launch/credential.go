package launch

import (
	"context"
	"fmt"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// KeyPlaceholder is what MURMUR_INFERENCE_API_KEY holds in every guest
// when the capsule sets inference.api_key: the key itself stays in the
// host, which adds it to the driver's requests to the endpoint (the
// credential gateway, SECURITY.md). A driver written for Murmur that
// sends this value in a header of a request to the endpoint has it
// replaced by the key on the way out, so it keeps working.
const KeyPlaceholder = "mur-gateway-placeholder-not-a-key"

// keyEnvValue is MURMUR_INFERENCE_API_KEY's value for a guest: the key
// only when raw (the driver of a capsule that opted in with
// inference.driver.raw_api_key), else the placeholder; an empty key has
// nothing to hide.
func keyEnvValue(inf *manifest.Inference, raw bool) string {
	if raw || inf.APIKey == "" {
		return inf.APIKey
	}
	return KeyPlaceholder
}

// driverCredential is the gateway's rule for the driver artifact a: the
// key goes only to the endpoint's origin, in the header the driver's
// manifest declares (credential:), and in place of the placeholder
// wherever the driver put it in a header.
func driverCredential(inf *manifest.Inference, a *stage.Artifact) (*wasip2.Credential, error) {
	if !inf.HasAPIKey || inf.APIKey == "" {
		return nil, nil
	}
	origin, err := wasip2.OriginOf(inf.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("inference.endpoint: %w", err)
	}
	c := &wasip2.Credential{Origin: origin, Placeholder: KeyPlaceholder, Secret: inf.APIKey}
	if a.Manifest != nil && a.Manifest.Credential != nil {
		c.Header, c.Prefix = a.Manifest.Credential.Header, a.Manifest.Credential.Prefix
	}
	return c, nil
}

// withEnv is env with key's value replaced by value.
func withEnv(env [][2]string, key, value string) [][2]string {
	out := make([][2]string, 0, len(env))
	for _, kv := range env {
		if kv[0] == key {
			kv[1] = value
		}
		out = append(out, kv)
	}
	return out
}

// setEnv is env with key set to value: replaced where env has it,
// appended (after the runtime's pairs, so still last) where not.
func setEnv(env [][2]string, key, value string) [][2]string {
	if shadowed(key, env) {
		return withEnv(env, key, value)
	}
	return append(env[:len(env):len(env)], [2]string{key, value})
}

// redacting removes the session's secrets from everything the driver
// answers, before the loop, a hook's run-inference or a log sees it, so
// that no path from it (the loop's errors, result.txt, trace, logs, the
// tools it calls) can carry the key: the driver never holds it under the
// gateway, and one given the raw key, or a provider echoing it in a form
// the response redaction cannot see (split across stream events, escaped
// in JSON), is caught here. What it streams meanwhile is the task's
// (agent's redacting TaskIO).
type redacting struct {
	tool    tools.Tool
	secrets *redact.Redactor
}

func (r redacting) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	res, err := r.tool.Invoke(ctx, in)
	if !r.secrets.Active() {
		return res, err
	}
	scrub := func(p *string) *string {
		if p == nil {
			return nil
		}
		s := r.secrets.String(*p)
		return &s
	}
	res.Summary, res.Data, res.DataPath = scrub(res.Summary), scrub(res.Data), scrub(res.DataPath)
	for i, kv := range res.Metadata {
		res.Metadata[i] = tools.Pair{Key: r.secrets.String(kv.Key), Value: r.secrets.String(kv.Value)}
	}
	for i, a := range res.Attachments {
		res.Attachments[i] = tools.Attachment{MediaType: r.secrets.String(a.MediaType), Path: r.secrets.String(a.Path)}
	}
	return res, r.secrets.Error(err)
}
