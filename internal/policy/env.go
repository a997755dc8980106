package policy

import "strings"

// CredentialEnvPatterns returns the built-in strip list, in order: these
// are removed from every subprocess environment and every guest env.allow
// set, whatever the manifest says (security.md §6). No manifest key can
// remove one. After Murmur's list come mur-go's: the OpenTelemetry
// exporter headers, which carry the collector's credentials (mur reads
// them to export the session's spans; no guest needs them), and the
// bearer tokens of mur's own servers, which would let a guest give its
// own capsule, or any other this user serves, tasks and calls.
func CredentialEnvPatterns() []string {
	return []string{
		"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GOOGLE_API_KEY", "HUGGING_FACE_HUB_TOKEN",
		"NEXUS_API_KEY", "AWS_*", "GITHUB_TOKEN", "GH_TOKEN", "DOCKER_*", "KUBECONFIG",
		"NPM_TOKEN", "PYPI_TOKEN", "CARGO_REGISTRY_TOKEN", "*_API_KEY",
		"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
		"OTEL_EXPORTER_OTLP_METRICS_HEADERS", "OTEL_EXPORTER_OTLP_LOGS_HEADERS",
		"MURMUR_A2A_TOKEN", "MURMUR_MCP_TOKEN",
	}
}

// MatchEnvPattern reports whether key matches pattern: "*X*" contains,
// "*X" suffix, "X*" prefix, else equality; case-sensitive, no other glob
// syntax (security.md §6).
func MatchEnvPattern(pattern, key string) bool {
	switch {
	case len(pattern) >= 2 && strings.HasPrefix(pattern, "*") && strings.HasSuffix(pattern, "*"):
		return strings.Contains(key, pattern[1:len(pattern)-1])
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(key, pattern[1:])
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(key, pattern[:len(pattern)-1])
	}
	return key == pattern
}

// Stripped reports whether key matches a built-in credential pattern or
// one of extra (capabilities.shell.strip_env): such a variable reaches no
// guest and no subprocess.
func Stripped(key string, extra []string) bool {
	for _, p := range CredentialEnvPatterns() {
		if MatchEnvPattern(p, key) {
			return true
		}
	}
	for _, p := range extra {
		if MatchEnvPattern(p, key) {
			return true
		}
	}
	return false
}

// GuestEnv is the env.allow set a WASM guest starts from: each allowed name
// the host has set, minus credentials and strip_env (security.md §8). The
// runtime's MURMUR_* pairs are appended after it by the caller, so the
// manifest cannot shadow them.
func GuestEnv(getenv func(string) (string, bool), allow, stripEnv []string) [][2]string {
	var out [][2]string
	for _, k := range allow {
		if Stripped(k, stripEnv) {
			continue
		}
		if v, ok := getenv(k); ok {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}
