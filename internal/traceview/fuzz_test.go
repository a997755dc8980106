package traceview

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/termtext"
)

// FuzzDecode feeds the decoder untrusted bytes, as a guest that writes
// its session directory can: it must never panic, and what it hands the
// commands must be whole (both session records for a summary) and free
// of terminal control characters, through every model built on it.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		startLine + "\n" + endLine + "\n",
		startLine + "\n" + `{"event_type":"inference","turn":1,"decision":"tool_call","tool_name":"t"}` + "\n" +
			`{"event_type":"tool_call","turn":1,"tool_name":"t","input":{"path":"a","x":[1,"s"]},"duration_ms":5,"status":"ok","state_effect":"read"}` + "\n" +
			`{"event_type":"tool_call","turn":2,"tool_name":"t","input":{"path":"a"},"duration_ms":5,"status":"error","state_effect":"read","cancelled":true,"exit_code":3,"signal":"SIGKILL"}` + "\n" +
			`{"event_type":"skill_call","turn":2,"skill_name":"s","duration_ms":1,"status":"ok"}` + "\n" +
			`{"event_type":"shell","exit_code":1,"duration_ms":2}` + "\n" +
			`{"event_type":"compaction","turn":2,"tokens_before":9,"tokens_after":1}` + "\n" +
			`{"event_type":"task_start","task_id":"t1","context_id":"c","source":"a2a"}` + "\n" +
			`{"event_type":"task_reopened","hook_name":"h","reason":"r\u001b","reopen_number":1}` + "\n" +
			`{"event_type":"task_end","task_id":"t1","exit_status":"ok","duration_ms":1,"turns":1,"input_tokens":1,"output_tokens":1,"tool_calls":1,"shell_calls":1}` + "\n" +
			endLine + "\n",
		`{"event_type":"session_start","session_id":"s","capsule_name":"c","capsule_version":"1","model":"m","max_turns":1,"security_warnings":[{"code":"W-SEC-010","message":"m"}]}`,
		"THIS IS NOT JSON\n",
		"\n\n\r\n",
		`{"event_type":"tool_call","tool_name":"\u202e","duration_ms":1,"status":"ok","input":"` + strings.Repeat("é", 200) + `"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := decode(bytes.NewReader(data), "fuzz.jsonl", 1<<16)
		if (tr == nil) == (err == nil) {
			t.Fatalf("Decode returned %v and %v", tr, err)
		}
		if err != nil {
			return
		}
		if steps, err := tr.Steps(); err == nil {
			allSafe(t, steps)
		}
		s, err := tr.Summary()
		if err != nil {
			return
		}
		allSafe(t, s.Trace)
		allSafe(t, Diff(s, s))
		allSafe(t, s.Turns())
		allSafe(t, s.SkillTurns())
		allSafe(t, sessionStats([]*Summary{s, s}))
		allSafe(t, exitShares([]*Summary{s}))
	})
}

// allSafe fails when a string anywhere in v would change the terminal it
// is printed on.
func allSafe(t *testing.T, v any) {
	t.Helper()
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			if !termtext.Safe(v.String(), true) {
				t.Fatalf("unsafe text %q", v.String())
			}
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Key())
				walk(it.Value())
			}
		}
	}
	walk(reflect.ValueOf(v))
}
