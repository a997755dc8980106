package stage

import (
	"context"
	"errors"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// Every staging-time validation message of a hook's own contract (wit.md
// §6.1), exactly, through Stage: nothing is compiled or laid out.
func TestHookContractMessages(t *testing.T) {
	const p = "hook h@1.0.0 invalid config: "
	for _, tc := range []struct{ extra, msg string }{
		{"binding: on-lunch\n", p + "unknown binding 'on-lunch'; expected: on-stage, on-session-start, on-task-start, on-inference, on-tool-call, on-shell, on-compaction, on-task-end, on-session-end"},
		{"execution_mode: later\n", p + "unknown execution_mode 'later'; expected: blocking, async"},
		{"commit_policy: everything\n", p + "unknown commit_policy 'everything'; expected: none, replace-context, write-manifests, reopen-task"},
		{"execution_mode: async\ncommit_policy: replace-context\n", p + "async-with-commit not supported: execution_mode 'async' requires commit_policy 'none' (got 'replace-context')"},
		{"binding: on-stage\nexecution_mode: async\n", p + "on-stage hooks must be blocking; execution_mode 'async' is not valid for binding 'on-stage'"},
		{"binding: on-stage\ncommit_policy: reopen-task\n", p + "commit_policy 'reopen-task' is not valid for binding 'on-stage'; binding 'on-stage' honors commit_policy 'write-manifests'"},
		{"binding: on-compaction\ncommit_policy: write-manifests\n", p + "commit_policy 'write-manifests' is not valid for binding 'on-compaction'; binding 'on-compaction' honors commit_policy 'replace-context'"},
		{"binding: on-task-end\ncommit_policy: replace-context\n", p + "commit_policy 'replace-context' is not valid for binding 'on-task-end'; binding 'on-task-end' honors commit_policy 'reopen-task'"},
		{"binding: on-shell\ncommit_policy: reopen-task\n", p + "commit_policy 'reopen-task' is not valid for binding 'on-shell'; binding 'on-shell' honors commit_policy 'none'"},
		{"binding: on-inference\ncommit_policy: replace-context\n", p + "commit_policy 'replace-context' is not valid for binding 'on-inference'; binding 'on-inference' honors commit_policy 'none' (on-inference commits an 'artifact' output, which has no commit_policy spelling)"},
	} {
		t.Run(tc.extra, func(t *testing.T) {
			f := newFixture(t)
			f.publish(f.local, "h", "1.0.0", artifact.Wasm, "hook",
				testguest.Zip(t, "murmur.yaml", "name: h\nversion: \"1.0.0\"\nruntime: hook\n"+tc.extra, "h.wasm", "x"), nil)
			opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: h, version: \"1.0.0\", runtime: hook}\n"))
			_, err := Stage(context.Background(), opts)
			if codeOf(err) != CodeIO {
				t.Fatalf("err = %v, want %s", err, CodeIO)
			}
			var e *diag.Error
			if !errors.As(err, &e) || e.Msg != tc.msg {
				t.Fatalf("message\n%q\nwant\n%q", diag.Text(err), tc.msg)
			}
			if f.comp.n.Load() != 0 {
				t.Fatal("compiled a hook with a bad contract")
			}
		})
	}
}
