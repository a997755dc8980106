package a2a

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// A bind beyond loopback needs a token or the flag that names the risk;
// Serve refuses it before it binds anything.
func TestExposureNeedsATokenOrTheFlag(t *testing.T) {
	tests := []struct {
		bind, token string
		insecure    bool
		refused     bool
	}{
		{bind: "", refused: false},
		{bind: "127.0.0.1", refused: false},
		{bind: "localhost", refused: false},
		{bind: "::1", refused: false},
		{bind: "0.0.0.0", refused: true},
		{bind: "::", refused: true},
		{bind: "192.168.1.10", refused: true},
		{bind: "example.com", refused: true},
		{bind: "0.0.0.0", token: "tok", refused: false},
		{bind: "0.0.0.0", insecure: true, refused: false},
	}
	for _, tc := range tests {
		err := CheckExposure(tc.bind, tc.token, tc.insecure)
		var d *diag.Error
		switch {
		case tc.refused && (!errors.As(err, &d) || d.Code != CodeIO || !strings.Contains(d.Hint, "--insecure-no-token") || !strings.Contains(d.Hint, TokenEnv)):
			t.Errorf("bind %q, token %q, insecure %v: %v, want E-IO-003 naming %s and --insecure-no-token", tc.bind, tc.token, tc.insecure, err, TokenEnv)
		case !tc.refused && err != nil:
			t.Errorf("bind %q, token %q, insecure %v: %v, want it served", tc.bind, tc.token, tc.insecure, err)
		}
	}
	ran := false
	o := s0(t)
	o.Bind = "0.0.0.0"
	o.Lifecycle = manifest.Lifecycle{TaskAcceptance: AcceptSingle, AfterTask: "exit", QueueDepth: 1}
	o.Run = func(context.Context, agent.TaskSource) error { ran = true; return nil }
	err := Serve(t.Context(), o)
	if err == nil || ran {
		t.Fatalf("Serve on 0.0.0.0 without a token: %v (loop ran: %v), want a refusal", err, ran)
	}
}

func TestConfiguredPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	o := s0(t)
	o.Port = port
	o.Lifecycle = manifest.Lifecycle{TaskAcceptance: AcceptSingle, AfterTask: "exit", QueueDepth: 1}
	o.Run = func(context.Context, agent.TaskSource) error { return nil }
	err = Serve(t.Context(), o)
	var d *diag.Error
	if !errors.As(err, &d) || d.Code != CodePortInUse {
		t.Fatalf("Serve on a bound internal_port: %v, want %s", err, CodePortInUse)
	}
}

func TestCancelWhileWaitingForInput(t *testing.T) {
	s := serve(t)
	c := v1(t, s)
	asked := send(t, c, "ask:still there?", false)
	if asked.Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("task %s, want input-required", asked.Status.State)
	}
	got, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: asked.ID})
	if err != nil || got.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("cancel while waiting for input: %v %v", got, err)
	}
	if _, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: asked.ID}); err != nil {
		t.Errorf("cancelling a canceled task again: %v", err)
	}
	done := send(t, c, "done", false)
	if _, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: done.ID}); !errors.Is(err, a2a.ErrTaskNotCancelable) {
		t.Errorf("cancelling a completed task: %v, want not cancelable", err)
	}
}
