package hello

// This test runs the example on mur's own component engine with a stand-in
// for the host's murmur:tool-registry/invoke: the allowlist check, the WASM
// tool in a fresh store per call, and the native tool as a subprocess
// speaking JSON on stdin and stdout. It checks that the committed
// components link and talk to a Go host the way mur run will drive them;
// mur run's own tests cover the real host.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const (
	invokeInstance = "murmur:tool-registry/invoke@0.1.0"
	runExport      = "murmur:capsule/run@0.1.0#run"
	toolExport     = "murmur:tool/run@0.1.0#run"
)

// compiled holds the two components, compiled once for every test.
var compiled struct {
	once               sync.Once
	capsule, wordCount *component.Component
	err                error
}

func components(t *testing.T) (capsule, wordCount *component.Component) {
	t.Helper()
	compiled.once.Do(func() {
		ctx := context.Background()
		dir, err := testguest.CacheDir()
		if err != nil {
			compiled.err = err
			return
		}
		engine, err := component.NewEngine(ctx, component.Config{CacheDir: dir})
		if err != nil {
			compiled.err = err
			return
		}
		compile := func(path string) *component.Component {
			b, err := os.ReadFile(path)
			if err == nil {
				var c *component.Component
				if c, err = engine.Compile(ctx, b); err == nil {
					return c
				}
			}
			if compiled.err == nil {
				compiled.err = fmt.Errorf("%s: %w (rebuild with examples/hello/build.sh)", path, err)
			}
			return nil
		}
		compiled.capsule = compile("capsule.wasm")
		compiled.wordCount = compile("tools/word-count/word-count.wasm")
	})
	if compiled.err != nil {
		t.Fatal(compiled.err)
	}
	return compiled.capsule, compiled.wordCount
}

func TestCapsuleRunsOnMurEngine(t *testing.T) {
	ctx := context.Background()
	capsule, wordCount := components(t)

	greet := filepath.Join(t.TempDir(), "greet")
	if out, err := exec.Command("go", "build", "-o", greet, "./tools/greet").CombinedOutput(); err != nil {
		t.Fatalf("building greet: %v\n%s", err, out)
	}

	workdir := t.TempDir()
	home := filepath.Join(workdir, ".capsule-home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	wasi, err := wasip2.NewCtx(wasip2.Grants{
		Dirs:   []wasip2.DirGrant{{Host: workdir, Guest: "."}},
		Env:    [][2]string{{"USER", "tester"}, {"MURMUR_SESSION_ID", "ses_test"}},
		Args:   []string{"capsule"},
		Stdout: wasip2.Output{W: &stdout},
		Stderr: wasip2.Output{W: &stderr},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer wasi.Close()

	allowlist := map[string]bool{"word-count": true, "greet": true}
	var calls []string
	invoke := func(ctx context.Context, _ *component.Store, args []any) (any, error) {
		name, input := args[0].(string), args[1].([]any)
		calls = append(calls, name)
		switch {
		case !allowlist[name]:
			return wit.Err(fmt.Sprintf("tool '%s' is not declared in manifest allowlist", name)), nil
		case name == "greet":
			res, err := runNative(greet, workdir, home, input)
			if err != nil {
				return wit.Err(err.Error()), nil
			}
			return wit.Ok(res), nil
		default:
			res, err := runWasmTool(ctx, wordCount, input)
			if err != nil {
				return wit.Err(fmt.Sprintf("tool '%s' trapped: %v", name, err)), nil
			}
			return wit.Ok(res), nil
		}
	}

	linker := component.NewLinker()
	if err := wasip2.Register(linker, func(*component.Store) *wasip2.Ctx { return wasi }); err != nil {
		t.Fatal(err)
	}
	invokeType := importedFunc(t, capsule.World(), invokeInstance, "invoke")
	if err := linker.DefineFunc(invokeInstance, "invoke", invokeType, invoke); err != nil {
		t.Fatal(err)
	}
	inst, err := linker.Instantiate(ctx, capsule, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(ctx)
	run, err := inst.Func(runExport)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Call(ctx); err != nil {
		t.Fatalf("run: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}

	if got, want := strings.Join(calls, ","), "word-count,greet,read-secrets"; got != want {
		t.Errorf("invoked %s, want %s", got, want)
	}
	result, err := os.ReadFile(filepath.Join(workdir, "out", "result.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"session: ses_test\n",
		"1. word-count (WASM tool, input: built-in sample)\n  status:  passed\n  summary: 10 words, 1 line, 69 characters\n",
		`  data:    {"words":10,"lines":1,"characters":69,"bytes":69,"longest_word":"WebAssembly"}` + "\n",
		"  meta:    state_effect=read\n",
		"2. greet (native tool, input: \"tester\")\n  status:  passed\n  summary: Hello, tester!\n",
		`"home":".capsule-home"`,
		"3. read-secrets (not declared in murmur.yaml)\n  refused: tool 'read-secrets' is not declared in manifest allowlist\n",
		"\nresult: ok: both declared tools ran; the undeclared one was refused\n",
	} {
		if !strings.Contains(string(result), want) {
			t.Errorf("out/result.txt lacks %q; it is:\n%s", want, result)
		}
	}
	if n := strings.Count(stdout.String(), "hello: "); n != 7 {
		t.Errorf("stdout has %d progress lines, want 7:\n%s", n, &stdout)
	}
}

// TestCapsuleFailsWhenAToolFails checks the capsule reports a failed tool
// in out/result.txt and then exits with status 1.
func TestCapsuleFailsWhenAToolFails(t *testing.T) {
	ctx := context.Background()
	capsule, _ := components(t)
	workdir := t.TempDir()
	wasi, err := wasip2.NewCtx(wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: workdir, Guest: "."}}})
	if err != nil {
		t.Fatal(err)
	}
	defer wasi.Close()
	linker := component.NewLinker()
	if err := wasip2.Register(linker, func(*component.Store) *wasip2.Ctx { return wasi }); err != nil {
		t.Fatal(err)
	}
	// Every tool is "not available": the declared ones fail too.
	invoke := func(_ context.Context, _ *component.Store, args []any) (any, error) {
		return wit.Err(fmt.Sprintf("tool '%s' is not available in this session", args[0])), nil
	}
	if err := linker.DefineFunc(invokeInstance, "invoke", importedFunc(t, capsule.World(), invokeInstance, "invoke"), invoke); err != nil {
		t.Fatal(err)
	}
	inst, err := linker.Instantiate(ctx, capsule, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(ctx)
	run, err := inst.Func(runExport)
	if err != nil {
		t.Fatal(err)
	}
	_, err = run.Call(ctx)
	var exit *wasip2.ExitError
	if !errors.As(err, &exit) || exit.Code != 1 {
		t.Fatalf("run: %v, want guest exit status 1", err)
	}
	result, err := os.ReadFile(filepath.Join(workdir, "out", "result.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"refused: tool 'word-count' is not available in this session",
		"result: failed: word-count did not pass; greet did not pass\n",
	} {
		if !strings.Contains(string(result), want) {
			t.Errorf("out/result.txt lacks %q; it is:\n%s", want, result)
		}
	}
}

// runWasmTool calls the tool's run in a fresh store with no grants.
func runWasmTool(ctx context.Context, c *component.Component, input []any) (any, error) {
	wasi, err := wasip2.NewCtx(wasip2.Grants{})
	if err != nil {
		return nil, err
	}
	defer wasi.Close()
	l := component.NewLinker()
	if err := wasip2.Register(l, func(*component.Store) *wasip2.Ctx { return wasi }); err != nil {
		return nil, err
	}
	inst, err := l.Instantiate(ctx, c, &component.Store{})
	if err != nil {
		return nil, err
	}
	defer inst.Close(ctx)
	fn, err := inst.Func(toolExport)
	if err != nil {
		return nil, err
	}
	return fn.Call(ctx, input)
}

// runNative runs a native tool the way security.md §8 describes: input as
// {"data","log_path"} on stdin, cwd the workdir, a synthetic HOME, and the
// {"status","summary","data"} object on stdout mapped to a tool-result.
func runNative(bin, workdir, home string, input []any) ([]any, error) {
	str := func(v any) *string {
		if o := v.(wit.OptionValue); o.Some {
			s := o.Value.(string)
			return &s
		}
		return nil
	}
	in, _ := json.Marshal(map[string]*string{"data": str(input[0]), "log_path": str(input[1])})
	cmd := exec.Command(bin)
	cmd.Dir = workdir
	cmd.Env = []string{"HOME=" + home, "USERPROFILE=" + home}
	cmd.Stdin = bytes.NewReader(in)
	stdout, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var out struct{ Status, Summary, Data string }
	if err := json.Unmarshal(stdout, &out); err != nil {
		return nil, err
	}
	status := map[string]uint32{"passed": 0, "failed": 1}[out.Status]
	if out.Status != "passed" && out.Status != "failed" {
		status = 2
	}
	return []any{status, wit.Some(out.Summary), wit.Some(out.Data), wit.None(), false, []any{}}, nil
}

func importedFunc(t *testing.T, w *wit.World, instance, name string) *wit.Func {
	t.Helper()
	for _, e := range w.Imports {
		if e.Name != instance {
			continue
		}
		for _, f := range e.Exports {
			if f.Name == name && f.Kind == wit.ExternFunc {
				return f.Func
			}
		}
	}
	t.Fatalf("capsule does not import %s#%s", instance, name)
	return nil
}
