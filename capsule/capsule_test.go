package capsule_test

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/capsule"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// agentCapsule writes an agent capsule whose model is the scripted driver
// replaying turns (YAML list items indented for driver.config.turns),
// with extra appended to the manifest, installs its artifacts and returns
// the options that run it hermetically: a home, a cache and an empty
// environment but PATH.
func agentCapsule(t *testing.T, turns, extra string) capsule.Options {
	t.Helper()
	dir := t.TempDir()
	yaml := "name: probe\nversion: \"0.1.0\"\ninference:\n  endpoint: http://localhost:9\n  model: scripted\n" +
		"  driver:\n    artifact: scripted\n    config:\n      turns:\n" + turns +
		"artifacts:\n  - name: scripted\n    version: \"0.1.0\"\n    runtime: driver\n" + extra
	manifest := filepath.Join(dir, "murmur.yaml")
	if err := os.WriteFile(manifest, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := testguest.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	o := capsule.Options{Manifest: manifest, Home: filepath.Join(dir, "home"), CacheDir: cache, NoEnvFile: true,
		Env:    env(map[string]string{"PATH": os.Getenv("PATH")}),
		Logger: slog.New(slog.DiscardHandler)}
	if err := capsule.Install(t.Context(), capsule.InstallOptions{Manifest: manifest, Home: o.Home, Env: o.Env, Logger: o.Logger}); err != nil {
		t.Fatal(err)
	}
	return o
}

// env is a lookup of vars and nothing else.
func env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// An embedder's task is text, whoever wrote it: a task that names a host
// file (a remote user asking for /etc/shadow) must reach the model as
// those words, never as the file's contents.
func TestRunTaskIsNeverAFileName(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("TOP SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := agentCapsule(t, "        - text: \"read it\"\n", "")
	o.Task = secret
	res, err := capsule.Run(t.Context(), o)
	if err != nil {
		t.Fatalf("run: %s %v", res.Status, err)
	}
	task, err := os.ReadFile(filepath.Join(res.Workdir, "task.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(task) != secret {
		t.Errorf("task.md = %q, want the task's own text %q", task, secret)
	}
}

// A tool can leave out/ pointing anywhere on the host (here the model
// has the shell replace it with a link to a directory of secrets). The
// runtime then cannot write the result and the run fails; what Run hands
// back as the result must not be read through the link.
func TestRunResultIsNotReadThroughAPlantedLink(t *testing.T) {
	secrets := t.TempDir()
	if err := os.WriteFile(filepath.Join(secrets, "result.txt"), []byte("TOP SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	turns := "        - tool_calls: [{id: a, name: rm, input: {command: \"-r out\"}}]\n" +
		"        - tool_calls: [{id: b, name: ln, input: {command: \"-s " + secrets + " out\"}}]\n" +
		"        - text: \"done\"\n"
	o := agentCapsule(t, turns, "capabilities:\n  shell:\n    allow: [rm, ln]\n")
	o.Task = "leave out/ pointing at the secrets"
	res, err := capsule.Run(t.Context(), o)
	if target, lerr := os.Readlink(filepath.Join(res.SessionDir, "out")); lerr != nil || target != secrets {
		t.Fatalf("the attack did not plant its link (%q, %v); run: %s %v", target, lerr, res.Status, err)
	}
	if strings.Contains(res.Text, "TOP SECRET") {
		t.Errorf("Result.Text = %q: read through the link a tool planted", res.Text)
	}
	if res.Status == capsule.StatusOK || err == nil {
		t.Errorf("run = %s, %v; want a failure: the result could not be written", res.Status, err)
	}
}

// Home is where the global store is: artifacts only there are found, and
// the process's HOME is not looked at.
func TestRunFindsTheGlobalStoreUnderHome(t *testing.T) {
	o := agentCapsule(t, "        - text: \"from the global store\"\n", "")
	project := filepath.Join(filepath.Dir(o.Manifest), ".murmur")
	global := filepath.Join(o.Home, ".murmur")
	if err := os.MkdirAll(o.Home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(project, global); err != nil {
		t.Fatal(err)
	}
	o.Task = "go"
	res, err := capsule.Run(t.Context(), o)
	if err != nil || res.Text != "from the global store" {
		t.Fatalf("run with Home = %s, %q, %v; want ok from the store under Home", res.Status, res.Text, err)
	}
	o.Home = filepath.Join(t.TempDir(), "elsewhere")
	res, err = capsule.Run(t.Context(), o)
	var e *capsule.Error
	if !errors.As(err, &e) || e.Code != "E-RUN-008" || !strings.Contains(e.Hint, o.Home) {
		t.Errorf("run with another Home = %s, %v (%+v); want E-RUN-008 naming the store under it", res.Status, err, e)
	}
}

// Env is the whole environment the manifest is read with: a variable the
// process has but Env does not is not set.
func TestRunReadsEnvNotTheProcess(t *testing.T) {
	const key = "MUR_CAPSULE_TEST_KEY"
	t.Setenv(key, "from-the-process")
	o := agentCapsule(t, "        - text: \"ok\"\n", "")
	yaml, err := os.ReadFile(o.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	yaml = []byte(strings.Replace(string(yaml), "  model: scripted\n", "  model: scripted\n  api_key: ${"+key+"}\n", 1))
	if err := os.WriteFile(o.Manifest, yaml, 0o644); err != nil {
		t.Fatal(err)
	}
	o.Task = "go"
	res, err := capsule.Run(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), key) || res.SessionID != "" {
		t.Errorf("run without %s in Env = %s, %v; want the load refused for the unset variable", key, res.Status, err)
	}
	o.Env = env(map[string]string{"PATH": os.Getenv("PATH"), key: "sk-from-env-0123456789"})
	if res, err := capsule.Run(t.Context(), o); err != nil {
		t.Errorf("run with %s in Env = %s, %v", key, res.Status, err)
	}
}

// Every warning reaches the Logger with its code.
func TestRunLogsWarnings(t *testing.T) {
	o := agentCapsule(t, "        - text: \"ok\"\n", "colour: blue\n")
	var log strings.Builder
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	o.Task = "go"
	if res, err := capsule.Run(t.Context(), o); err != nil {
		t.Fatalf("run = %s, %v", res.Status, err)
	}
	if !strings.Contains(log.String(), "code=W-MAN-001") || !strings.Contains(log.String(), "colour") {
		t.Errorf("log has no W-MAN-001 for the unknown key:\n%s", log.String())
	}
}

// Serve serves agents only; a script capsule is refused before anything
// is staged.
func TestServeRefusesAScriptCapsule(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "murmur.yaml")
	if err := os.WriteFile(manifest, []byte("name: script\nversion: \"0.1.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := capsule.Serve(t.Context(), capsule.Options{Manifest: manifest, Home: filepath.Join(dir, "home"), Logger: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "script capsule") || res.Status != capsule.StatusFailed {
		t.Errorf("Serve(script capsule) = %s, %v; want refused", res.Status, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "workdir")); err == nil {
		t.Error("a refused Serve created a workdir")
	}
}

// The coded error of a run that failed is an *Error, whose text and
// fields carry none of the session's secrets.
func TestRunErrorIsCodedAndRedacted(t *testing.T) {
	const token = "a2a-token-0123456789abcdef"
	o := agentCapsule(t, "        - error: \"the model refused "+token+"\"\n", "")
	o.Token, o.Task = token, "go"
	res, err := capsule.Run(t.Context(), o)
	var e *capsule.Error
	if !errors.As(err, &e) || res.Status != capsule.StatusFailed {
		t.Fatalf("run = %s, %v (%T); want a failed run with a coded error", res.Status, err, err)
	}
	for what, text := range map[string]string{"Error()": err.Error(), "Message": e.Message, "Hint": e.Hint, "Result.Text": res.Text} {
		if strings.Contains(text, token) {
			t.Errorf("%s carries the A2A token: %q", what, text)
		}
	}
	if !strings.Contains(e.Message, "the model refused") {
		t.Errorf("Message = %q, want the driver's words", e.Message)
	}
}

// The options a run is shaped by reach it: the system prompt the model is
// sent, the workdir the capsule sees, the containment floor it insists on.
func TestRunHonoursItsOptions(t *testing.T) {
	o := agentCapsule(t, "        - expect_system: \"Be terse.\"\n          text: \"ok\"\n", "")
	o.Task = "go"
	if res, err := capsule.Run(t.Context(), o); err == nil {
		t.Fatalf("run without the system prompt the script expects = %s; want failed", res.Status)
	}
	prompt := "Be terse."
	o.SystemPrompt, o.Workdir = &prompt, t.TempDir()
	res, err := capsule.Run(t.Context(), o)
	if err != nil || res.Text != "ok" {
		t.Fatalf("run with SystemPrompt = %s, %q, %v", res.Status, res.Text, err)
	}
	if res.Workdir != o.Workdir || filepath.Dir(res.SessionDir) != filepath.Join(o.Workdir, ".murmur") {
		t.Errorf("Workdir %s, SessionDir %s; want the given workdir and a session under its .murmur", res.Workdir, res.SessionDir)
	}
	o.Containment = "airtight"
	res, err = capsule.Run(t.Context(), o)
	var e *capsule.Error
	if !errors.As(err, &e) || !strings.Contains(e.Message, "airtight") || res.SessionID != "" {
		t.Errorf("run with Containment airtight = %s, %v; want refused before staging", res.Status, err)
	}
}
