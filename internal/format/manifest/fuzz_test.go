package manifest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
)

// FuzzParse feeds arbitrary bytes through every entry point that sees
// untrusted manifest text; none may panic, and a failed parse must return
// only *diag.Error values that render.
func FuzzParse(f *testing.F) {
	f.Add([]byte(maximal))
	f.Add([]byte("name: a\nversion: '1'\nruntime: hook\nbinding: on-stage\n"))
	f.Add([]byte("a: &x [*x, *x]\nb: *x\n"))
	f.Add([]byte("name: &n {a: *n}\n"))
	f.Add([]byte("<<: {name: a}\nversion: !!int 1\n"))
	f.Add([]byte(agentHdr + "mcp:\n  servers:\n    - {name: l, command: node, args: [a], env: {A: b}}\n    - {name: r, url: 'https://x/mcp', headers: {Authorization: 'Bearer ${ANTHROPIC_API_KEY}'}}\n"))
	inputs, _ := filepath.Glob("testdata/golden/*.yaml")
	for _, in := range inputs {
		if b, err := os.ReadFile(in); err == nil {
			f.Add(b)
		}
	}
	env := envOf("ANTHROPIC_API_KEY", "k")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, role := range []Role{RoleAuto, RoleCapsule, RoleArtifact} {
			file, warns, err := Parse(data, "", ParseOptions{Role: role, Env: env, ScanSecrets: true})
			for _, w := range warns {
				_ = w.String()
			}
			if err != nil {
				if file != nil {
					t.Fatal("file and error both set")
				}
				es := errs(err)
				if len(es) == 0 {
					t.Fatalf("error is not *diag.Error: %v", err)
				}
				for _, e := range es {
					if e.Code == "" || e.Msg == "" {
						t.Fatalf("incomplete error %#v", e)
					}
					_ = diag.Render(e)
				}
				continue
			}
			if c := file.Capsule; c != nil {
				_ = c.Capabilities.CheckScope("capabilities")
				_, _ = c.Registry.Resolve()
				for i := range c.Artifacts {
					_ = c.Artifacts[i].Capabilities.CheckScope("x")
				}
			}
			if a := file.Artifact; a != nil {
				_, _ = a.HookContract()
				_ = a.PackagingType()
				_ = ValidateArtifactName(a.Name)
			}
		}
		_, _ = ParseDotEnv(data, ".env")
		// A tool record is an on-stage hook's text: its schema is what the
		// tool inventory decodes, so it is always JSON.
		if r, err := ParseToolRecord(data, "murmur.yaml"); err == nil && !json.Valid([]byte(r.InputSchema)) {
			t.Fatalf("tool record schema is not JSON: %q", r.InputSchema)
		} else if err != nil && r != nil {
			t.Fatal("tool record and error both set")
		}
	})
}

// TestAliasBomb: alias expansion must stay cheap in every generic walk
// (secret scan, ${VAR} check, driver config to JSON).
func TestAliasBomb(t *testing.T) {
	src := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		src += n + ": &" + n + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = n
	}
	src += "name: x\nversion: '1'\ninference: {endpoint: 'https://x', model: m, driver: {artifact: d, config: {k: *i}}}\n"
	start := time.Now()
	_, _, err := Parse([]byte(src), "", ParseOptions{Env: envOf(), ScanSecrets: true})
	if time.Since(start) > 10*time.Second { // unbounded expansion would be 9^9 nodes; -race is ~100x slower
		t.Fatalf("took %v", time.Since(start))
	}
	if e := errs(err); len(e) != 1 || e[0].Pos.Path != "inference.driver.config" {
		t.Errorf("want a too-large driver config error, got %v", err)
	}
}
