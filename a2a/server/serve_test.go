package server

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/agent"
	"github.com/mur-go/mur/internal/diag"
	"github.com/mur-go/mur/manifest"
)

func TestWideBind(t *testing.T) {
	for bind, wide := range map[string]bool{"127.0.0.1": false, "::1": false, "localhost": false, "127.1.2.3": false,
		"0.0.0.0": true, "::": true, "192.168.1.10": true, "example.com": true} {
		if wideBind(bind) != wide {
			t.Errorf("wideBind(%q) = %v", bind, !wide)
		}
	}
}

func TestConfiguredPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	err = Serve(t.Context(), ServerOptions{Session: s0(t), Port: port,
		Lifecycle: manifest.Lifecycle{TaskAcceptance: AcceptSingle, AfterTask: "exit", QueueDepth: 1},
		Run:       func(context.Context, agent.TaskSource) error { return nil }})
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
