package agentexample

// This test runs the example as its README does, through the mur binary:
// the three artifacts are built from this directory's sources, packed with
// `mur build`, installed with `mur install` and the capsule is run with
// `mur run -v --task task.md`, in temporary directories with their own
// HOME. The scripted model checks every tool result it is fed, so a run
// that ends ok proves the WASM and the native tool answered what the
// script expects; the final answer is read from murmur.yaml, so the
// script is the one place that says what the agent does.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/testing/testguest"
)

func TestMain(m *testing.M) {
	code := testguest.Main(m)
	shared.remove()
	os.Exit(code)
}

// example is the example installed in a temporary project.
type example struct {
	bin, project, home, cache string
	// pkgs are the artifact packages mur build made.
	pkgs []string
}

func setUp(t testing.TB) *example {
	t.Helper()
	bin, pkgs, err := shared.get()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	e := &example{bin: bin, project: filepath.Join(tmp, "project"), home: filepath.Join(tmp, "home"), pkgs: pkgs}
	if e.cache, err = testguest.CacheDir(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"murmur.yaml", "task.md"} {
		copyFile(t, f, filepath.Join(e.project, f))
	}
	for _, zip := range pkgs {
		e.mustMur(t, e.project, "install", zip)
	}
	return e
}

// mur runs the mur binary in dir with a clean environment: PATH, the
// example's own HOME and the shared compilation cache.
func (e *example) mur(dir string, args ...string) (stdout, stderr string, code int) {
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "MUR_CACHE_DIR=" + e.cache}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		code = -1
		errb.WriteString(err.Error())
	}
	return out.String(), errb.String(), code
}

func (e *example) mustMur(t testing.TB, dir string, args ...string) {
	t.Helper()
	if _, stderr, code := e.mur(dir, args...); code != 0 {
		t.Fatalf("mur %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
}

func TestAgentExampleAnswersItsTask(t *testing.T) {
	e := setUp(t)
	answer := finalAnswer(t)
	cases := []struct {
		name, task string
		code       int
		status     string
		result     string
	}{
		{"its own task", "task.md", 0, "ok", answer},
		// Another text gives other tool results than the script expects: the
		// scripted model refuses to answer, and the run fails rather than
		// passing off its canned answer.
		{"another task", "Count these four words.", 1, "failed",
			`error: {"error":"turn 2: tool result 1 is {ToolCallID:stats IsError:false Text:{\"path\":\"task.md\",\"words\":4,`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := e.mur(e.project, "run", "-v", "--task", c.task)
			// The answer follows "status:  ok" (issue 25 §2); a failure ends
			// with its status line.
			if code != c.code || !strings.Contains(stdout, "\nstatus:  "+c.status+"\n") || c.code == 0 && !strings.Contains(stdout, "\nstatus:  ok\n"+c.result) {
				t.Fatalf("mur run: exit %d, want %d and status %s\nstdout:\n%s\nstderr:\n%s", code, c.code, c.status, stdout, stderr)
			}
			if c.code == 0 {
				readmeSaysWhatARunPrints(t, stdout, stderr)
			}
			// mur run names the result file; it is in the workdir it printed.
			workdir := lineValue(t, stdout, "workdir: ")
			resultPath := lineValue(t, stdout, "result:  ")
			if want := filepath.Join(workdir, "out", "result.txt"); resultPath != want {
				t.Errorf("mur run names %s as the result, want %s", resultPath, want)
			}
			result, err := os.ReadFile(resultPath)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(result), c.result) {
				t.Errorf("out/result.txt is\n%s\nwant it to start with\n%s\nstderr:\n%s", result, c.result, stderr)
			}
			// The inventory the model was shown: both tools, not the driver.
			log, err := os.ReadFile(filepath.Join(workdir, "logs", "bootstrap.log"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"name": "fingerprint"`, `"name": "word-stats"`} {
				if !strings.Contains(string(log), want) {
					t.Errorf("logs/bootstrap.log lacks %s:\n%s", want, log)
				}
			}
			if strings.Contains(string(log), `"name": "scripted"`) {
				t.Errorf("the driver is in the model's tool inventory:\n%s", log)
			}
		})
	}
}

// finalAnswer is the text of the script's last turn in murmur.yaml.
func finalAnswer(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("murmur.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Inference struct {
			Driver struct {
				Config struct {
					Turns []struct {
						Text string `yaml:"text"`
					} `yaml:"turns"`
				} `yaml:"config"`
			} `yaml:"driver"`
		} `yaml:"inference"`
	}
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	turns := m.Inference.Driver.Config.Turns
	if len(turns) == 0 || turns[len(turns)-1].Text == "" {
		t.Fatal("murmur.yaml's script has no final text")
	}
	return turns[len(turns)-1].Text
}

// lineValue is the rest of the stdout line starting with prefix.
func lineValue(t *testing.T, stdout, prefix string) string {
	t.Helper()
	for line := range strings.SplitSeq(stdout, "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			return v
		}
	}
	t.Fatalf("mur run printed no %q line:\n%s", prefix, stdout)
	return ""
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	if err := copyTo(from, to); err != nil {
		t.Fatal(fmt.Errorf("copying %s: %w", from, err))
	}
}
