package capsule_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/capsule"
	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// Every CallOptions field has its effect, and a call that cannot be made
// says why.
func TestCall(t *testing.T) {
	cache, err := testguest.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	engine, err := component.NewEngine(t.Context(), component.Config{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close(t.Context())
	rules, err := policy.ParseNetRules([]string{"example.com"})
	if err != nil {
		t.Fatal(err)
	}
	const run01, run02 = "murmur:tool/run@0.1.0#run", "murmur:tool/run@0.2.0#run"
	cases := []struct {
		name, guest, export string
		opts                capsule.CallOptions
		// want is the result, or else check the error.
		want  string
		check func(error) bool
	}{
		{name: "args by name", guest: testguest.ToolrunGo, export: run02,
			opts: capsule.CallOptions{Args: []byte(`{"input": {"data": "abc"}}`)},
			want: `{"status":"passed","summary":"echo: abc","data":"cba","data-path":null,"truncated":false,"metadata":[["len","3"]],"attachments":[]}`},
		{name: "no such export", guest: testguest.ToolrunGo, export: "run",
			check: func(err error) bool { return strings.Contains(err.Error(), "murmur:tool/run@0.2.0") }},
		{name: "args of the wrong shape", guest: testguest.ToolrunGo, export: run02,
			opts:  capsule.CallOptions{Args: []byte(`[1]`)},
			check: func(err error) bool { return strings.Contains(err.Error(), "arguments for "+run02) }},
		{name: "deadline", guest: "tool-spin", export: run01,
			opts: capsule.CallOptions{Args: []byte(`[{}]`), Limits: component.Limits{Deadline: 50 * time.Millisecond}},
			check: func(err error) bool {
				var d *component.DeadlineError
				return errors.As(err, &d)
			}},
		{name: "exit", guest: "wasitest-go", export: run02,
			opts: capsule.CallOptions{Args: []byte(`[{"data": "exit 3"}]`)},
			check: func(err error) bool {
				var e *wasip2.ExitError
				return errors.As(err, &e) && e.Code != 0
			}},
		{name: "both network settings", guest: testguest.ToolrunGo, export: run02,
			opts:  capsule.CallOptions{AllowNet: []string{"example.com"}, Grants: wasip2.Grants{Net: rules}},
			check: func(err error) bool { return strings.Contains(err.Error(), "set one") }},
		{name: "a bad network rule", guest: testguest.ToolrunGo, export: run02,
			opts: capsule.CallOptions{AllowNet: []string{"*.example.com"}},
			check: func(err error) bool {
				var e *capsule.Error
				return errors.As(err, &e) && strings.HasPrefix(e.Code, "E-")
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Engine = engine
			out, err := capsule.Call(t.Context(), testguest.Bytes(t, c.guest), c.export, c.opts)
			if c.check == nil {
				if err != nil || string(out) != c.want {
					t.Errorf("Call = %s, %v; want %s", out, err, c.want)
				}
				return
			}
			if err == nil || !c.check(err) {
				t.Errorf("Call = %s, %v (%T); not the failure expected", out, err, err)
			}
		})
	}
}

// Call's grants are the guest's whole environment: nothing of the
// process's comes through.
func TestCallInheritsNothing(t *testing.T) {
	t.Setenv("MUR_CAPSULE_TEST_HOST_VAR", "leaked")
	cache, err := testguest.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	_, err = capsule.Call(t.Context(), testguest.Bytes(t, "wasitest-go"), "murmur:tool/run@0.2.0#run", capsule.CallOptions{
		Args:     []byte(`[{"data": "env"}]`),
		Grants:   wasip2.Grants{Env: [][2]string{{"GIVEN", "yes"}}, Stdout: wasip2.Output{W: &stdout}},
		CacheDir: cache,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "env=GIVEN=yes\n") || strings.Contains(stdout.String(), "leaked") {
		t.Errorf("the guest saw:\n%s\nwant GIVEN=yes alone", stdout.String())
	}
}
