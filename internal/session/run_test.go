package session_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const scriptYAML = "name: probe\nversion: \"0.1.0\"\n"

// capsuleDir writes murmur.yaml and, if guest is set, the test guest as
// capsule.wasm beside it.
func capsuleDir(t *testing.T, yaml, guest string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if guest != "" {
		if err := os.WriteFile(filepath.Join(dir, "capsule.wasm"), testguest.Bytes(t, guest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// options runs dir's capsule hermetically: a HOME and a compilation cache
// of its own.
func options(t *testing.T, dir string) session.Options {
	home := filepath.Join(dir, ".home")
	t.Setenv("HOME", home)
	return session.Options{
		ManifestPath: filepath.Join(dir, "murmur.yaml"),
		NoEnvFile:    true,
		Log:          slog.New(slog.DiscardHandler),
		CacheDir:     filepath.Join(t.TempDir(), "cache"),
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		},
	}
}

func TestRunFailures(t *testing.T) {
	cases := []struct {
		name   string
		yaml   string
		guest  string
		step   session.Step
		status session.Status
		text   string
	}{
		{"no manifest", "", "", session.StepLoad, session.StatusFailed, "murmur.yaml"},
		{"agent capsule with an undeclared driver", scriptYAML + "inference:\n  endpoint: https://x.example\n  model: m\n  driver:\n    artifact: d\n", "",
			session.StepStage, session.StatusFailed, "inference driver 'd' is not declared"},
		{"no component", scriptYAML, "", session.StepPrepare, session.StatusFailed, "E-RUN-004"},
		{"not a capsule component", scriptYAML, "tool-spin", session.StepRun, session.StatusFailed, "murmur:capsule/run@0.1.0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.yaml != "" {
				dir = capsuleDir(t, c.yaml, c.guest)
			}
			res, err := session.Run(context.Background(), options(t, dir))
			var e *diag.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want a coded error", err, err)
			}
			if res.Step != c.step || !strings.Contains(diag.Render(err), c.text) {
				t.Errorf("step %s, err %q; want step %s and %q", res.Step, diag.Render(err), c.step, c.text)
			}
			if session.StatusOf(err) != c.status || res.Status != c.status {
				t.Errorf("status %s / %s, want %s", session.StatusOf(err), res.Status, c.status)
			}
			if (c.step == session.StepRun) != (res.Session != nil) {
				t.Errorf("failed at %s with session %v", res.Step, res.Session)
			}
			if c.step != session.StepRun {
				if _, err := os.Stat(filepath.Join(dir, "workdir")); err == nil {
					t.Error("a refused run created a workdir")
				}
			}
		})
	}
}

func TestRunScriptCapsule(t *testing.T) {
	dir := capsuleDir(t, scriptYAML, "capsule-steps")
	o := options(t, dir)
	var staged []*stage.Staged
	var warnings []manifest.Warning
	o.OnStaged = func(s *stage.Staged) { staged = append(staged, s) }
	o.OnWarning = func(w manifest.Warning) { warnings = append(warnings, w) }
	res, err := session.Run(context.Background(), o)
	if err != nil || res.Status != session.StatusOK {
		t.Fatalf("run = %+v, %v", res, err)
	}
	if len(staged) != 1 || staged[0] != res.Session || !strings.HasPrefix(res.Session.ID, "ses_") {
		t.Fatalf("OnStaged saw %v, result session %v", staged, res.Session)
	}
	if _, err := os.Stat(filepath.Join(dir, "murmur.lock")); err != nil {
		t.Errorf("the first run wrote no murmur.lock: %v", err)
	}
}

// A run whose context is cancelled from outside ends cancelled, however
// far it got, and says why.
func TestRunCancelled(t *testing.T) {
	dir := capsuleDir(t, scriptYAML, "capsule-steps")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stopped by the test"))
	res, err := session.Run(ctx, options(t, dir))
	if res.Status != session.StatusCancelled || session.StatusOf(err) != session.StatusCancelled {
		t.Fatalf("run = %+v, %v; want cancelled", res, err)
	}
	if !strings.Contains(err.Error(), "stopped by the test") {
		t.Errorf("err = %q, want the cause", err)
	}
}
