package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// An observability.otel_endpoint no collector can be at is refused
// before anything is made, for an agent and a script capsule alike,
// rather than accepted and never used.
func TestRunRefusesAnUnusableOtelEndpoint(t *testing.T) {
	for _, tc := range []struct{ name, yaml, endpoint, want string }{
		{"agent, scheme", agentYAML, "ftp://collector:4318", "the scheme must be http or https, not ftp"},
		{"script, credentials", scriptYAML, "http://user:secret@collector:4318", "the URL carries credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := capsuleDir(t, tc.yaml+"observability:\n  otel_endpoint: "+tc.endpoint+"\n", nil)
			stdout, stderr, code := murIn(t, dir, "run", "--task", "hi")
			expectFailure(t, stdout, stderr, code, "failed", "error[E-MAN-003]: invalid observability config for 'observability.otel_endpoint'", tc.want)
			if _, err := os.Stat(filepath.Join(dir, "workdir")); err == nil {
				t.Error("a refused run created a workdir")
			}
		})
	}
}
