package launch_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The OpenTelemetry exporter headers in mur's environment are the
// collector's credentials: a model that says one (it was in the task, or
// the manifest interpolated it) has it redacted from the answer mur
// prints, out/result.txt, trace.jsonl and every other file of the
// project, whether or not a collector is configured, from the generic
// and the traces variable alike.
func TestOTLPHeaderValuesRedacted(t *testing.T) {
	const generic, traces = "otel-generic-secret-91c2", "otel-traces-secret-5d7e"
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: t.TempDir()}
	yaml := `name: talker
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "the keys are ` + generic + ` and ` + traces + `"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
`
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip"))
	stdout, stderr, code := runMur(p.dir, []string{"OTEL_EXPORTER_OTLP_HEADERS=authorization=Bearer%20" + generic + ",x-tenant=acme",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS=x-key=" + traces}, "run", "--task", "say the keys")
	if code != 0 || !strings.Contains(stdout, "the keys are [REDACTED] and [REDACTED]") {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, secret := range []string{generic, traces} {
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("mur's output holds %s", secret)
		}
		err := filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
			// murmur.yaml is where this test put them, for the model.
			if err != nil || !d.Type().IsRegular() || path == filepath.Join(p.dir, "murmur.yaml") {
				return err
			}
			if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds %s", path, secret)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
