package launch_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
)

// session_start.effective_grants is the whole object `mur run
// --explain-scope --json` prints for the same manifest on the same host
// (Murmur compares the two whole): every key, the grants' own shapes
// (interpreter_runtime's binary and dirs) and mur-go's tier and
// subprocess included.
func TestTraceGrantsAreTheExplainedScope(t *testing.T) {
	p := loopProject(t, "", `[{"text": "ok"}]`)
	appendFile(t, filepath.Join(p.dir, "murmur.yaml"), `capabilities:
  containment: advisory
  filesystem:
    scope: ./data
  network:
    allow: [https://api.example.com]
  env:
    allow: [MURMUR_TEST_REGION]
  shell:
    allow: [sh]
    interpreter_runtime: [{binary: sh, dirs: [{path: /usr/share, list_dir: false}]}]
`)
	stdout, _ := p.mur(0, "run", "--explain-scope", "--json")
	var explained map[string]any
	if err := json.Unmarshal([]byte(stdout), &explained); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	p.mur(0, "run", "--task", "go")
	var grants any
	for _, l := range p.sessionTrace() {
		if l.Type == trace.TypeSessionStart {
			grants = l.Fields["effective_grants"]
			break
		}
	}
	if !reflect.DeepEqual(grants, any(explained)) {
		a, _ := json.Marshal(grants)
		t.Errorf("session_start.effective_grants\n%s\nis not what --explain-scope --json printed\n%s", a, stdout)
	}
	ir, _ := explained["interpreter_runtime_grants"].([]any)
	if len(ir) != 1 || ir[0].(map[string]any)["binary"] != "sh" {
		t.Errorf("interpreter_runtime_grants as explained: %v", explained["interpreter_runtime_grants"])
	}
}
