package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
)

// FuzzCapsulePolicy: whatever manifest parses, computing its policy (rules
// with positions, per-artifact narrowing, limits, warnings) never panics,
// and rule errors are *diag.Error values that render.
func FuzzCapsulePolicy(f *testing.F) {
	f.Add([]byte("name: c\nversion: '1'\ncapabilities:\n  network: {allow: ['*.x', 'https://a.com:1']}\nartifacts:\n  - {name: t, version: '1', capabilities: {network: {allow: ['a.com']}}}\n"))
	inputs, _ := filepath.Glob("../format/manifest/testdata/golden/*.yaml")
	for _, in := range inputs {
		if b, err := os.ReadFile(in); err == nil {
			f.Add(b)
		}
	}
	none := func(string) (string, bool) { return "", false }
	f.Fuzz(func(t *testing.T, data []byte) {
		file, _, err := manifest.Parse(data, "", manifest.ParseOptions{Role: manifest.RoleCapsule, Env: none})
		if err != nil || file.Capsule == nil {
			return
		}
		c := file.Capsule
		if _, err := NetworkRules(c.Capabilities, "capabilities"); err != nil {
			for _, e := range errs(err) {
				if e.Code != manifest.CodeNetRule || e.Msg == "" || e.Error() == "" {
					t.Fatalf("bad rule error %#v", e)
				}
			}
		}
		_ = GuestLimits(c.Capabilities, true)
		_ = SubprocessLimits(c.Capabilities)
		_ = SecurityWarnings(c, Host{Tier: TierEnvironmentOnly})
		for i := range c.Artifacts {
			_, _, _, _ = ArtifactNetwork(c, &c.Artifacts[i])
		}
	})
}
