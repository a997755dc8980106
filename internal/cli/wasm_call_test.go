package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

const toolRun = "murmur:tool/run@0.2.0#run"

// call runs "mur wasm call" on a test guest.
func call(t *testing.T, guest, export string, flags ...string) outcome {
	t.Helper()
	o := mur(t, append([]string{"wasm", "call", testguest.Path(guest), export}, flags...)...)
	return o
}

func TestWasmCallToolRun(t *testing.T) {
	const want = `{"status":"passed","summary":"echo: héllo","data":"olléh","data-path":"/tmp/log","truncated":false,"metadata":[["len","6"]],"attachments":[]}` + "\n"
	for _, args := range []string{
		`[{"data":"héllo","log-path":"/tmp/log"}]`,
		`{"input":{"log-path":"/tmp/log","data":"héllo"}}`,
	} {
		o := call(t, testguest.ToolrunJS, toolRun, "--args", args)
		o.want(t, 0, "", "")
		if o.stdout != want {
			t.Errorf("--args %s printed %s want %s", args, o.stdout, want)
		}
	}
}

func TestWasmCallCanned(t *testing.T) {
	o := call(t, testguest.DriverCanned, toolRun, "--args", `[{"data":"hello","log-path":null}]`, "--deadline", "10", "--max-memory", "64")
	o.want(t, 0, "", "")
	var got struct {
		Status string `json:"status"`
		Data   string `json:"data"`
	}
	if err := json.Unmarshal([]byte(o.stdout), &got); err != nil || !strings.HasSuffix(o.stdout, "}\n") {
		t.Fatalf("stdout %q is not one line of JSON: %v", o.stdout, err)
	}
	if got.Status != "passed" || got.Data != testguest.DriverCannedData {
		t.Errorf("got status %q data %q, want passed and %q", got.Status, got.Data, testguest.DriverCannedData)
	}
}

func TestWasmCallNoResult(t *testing.T) {
	o := call(t, testguest.HookLifecycle, "murmur:hook/lifecycle@0.2.0#on-shell")
	o.want(t, 0, "", "")
	if o.stdout != "null\n" {
		t.Errorf("stdout %q, want null", o.stdout)
	}
}

func TestWasmCallLogsAtDebug(t *testing.T) {
	o := mur(t, "--log-level", "debug", "wasm", "call", testguest.Path(testguest.HookLifecycle), "murmur:hook/lifecycle@0.2.0#on-shell")
	o.want(t, 0, "null\n", `level=DEBUG msg="call returned"`)
}

func TestWasmCallFailures(t *testing.T) {
	session := `[{"capsule-name":"c","capsule-version":"1","session-id":"s","model":"m","capabilities":[]}]`
	for _, tc := range []struct {
		name, guest, export string
		flags               []string
		code                int
		stderr              string
	}{
		{"trap", testguest.DriverTrap, toolRun, []string{"--args", `[{}]`}, 1, "mur: guest trapped in " + toolRun},
		{"deadline", testguest.HookSpin, "murmur:hook/lifecycle@0.2.0#on-session-start", []string{"--deadline", "0.2", "--args", session}, 1, "(raise --deadline to allow more time)"},
		{"memory", "engine-limits", "grow-or-trap", []string{"--max-memory", "1", "--args", `[100]`}, 1, "(raise --max-memory to allow more)"},
		{"unknown export", testguest.DriverCanned, "run", nil, 2, "no function \"run\"; the component exports:\n  " + toolRun + "\n"},
		{"args type", testguest.DriverCanned, toolRun, []string{"--args", `[{"data":5}]`}, 2, "$.input.data: want string, got number\n"},
		{"args missing", testguest.DriverCanned, toolRun, nil, 2, "$: want 1 argument (input), got 0; pass them with --args\n"},
		{"args unknown", testguest.DriverCanned, toolRun, []string{"--args", `{"input":{},"extra":1}`}, 2, `unknown parameter "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := call(t, tc.guest, tc.export, tc.flags...)
			o.want(t, tc.code, "", tc.stderr)
			if o.stdout != "" {
				t.Errorf("stdout %q, want nothing", o.stdout)
			}
		})
	}
}
