package process_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/process"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/sandbox"
)

// A tool call goes from the CLI over MCP through the bridge to the
// dispatcher and back; the stream's turns and paired call are traced and
// the result event is out/result.txt, in both dialects.
func TestToolCallRoundTrip(t *testing.T) {
	const input = `{"b":2,"a":"x<y"}`
	const sorted = `{"a":"x<y","b":2}`
	tests := []struct {
		cli   string
		trace string
	}{
		{"claude", "inference 0 tool_call echo\n" +
			`tool_call 0 echo ` + sorted + ` 17 "echo:` + strings.ReplaceAll(sorted, `"`, `\"`) + `" 22 ok` + "\n" +
			"inference 1 end_turn \nsession_end 2 1 ok"},
		{"codex", "inference 0 tool_call echo\n" +
			`tool_call 0 echo ` + sorted + ` 17 "echo:` + strings.ReplaceAll(sorted, `"`, `\"`) + `" 22 ok` + "\n" +
			"inference 1 end_turn \ninference 2 end_turn \nsession_end 3 1 ok"},
	}
	for _, tt := range tests {
		t.Run(tt.cli, func(t *testing.T) {
			d, tr := &echo{}, &trace{}
			o := options(t, fakeCLI(tt.cli), "call echo "+input, d, tr)
			res, err := process.Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			want := "done: echo:" + sorted
			if res.Text != want || result(t, o.Workdir) != want {
				t.Fatalf("result %q, result.txt %q; want %q", res.Text, result(t, o.Workdir), want)
			}
			if !slices.Equal(d.calls, []string{"echo " + sorted}) {
				t.Fatalf("dispatched %q", d.calls)
			}
			if got := tr.text(); got != tt.trace {
				t.Fatalf("trace:\n%s\nwant:\n%s", got, tt.trace)
			}
			var advertised []struct {
				Name, Description string
				InputSchema       json.RawMessage
			}
			recorded(t, o.Workdir, "fake-tools.json", &advertised)
			if len(advertised) != 1 || advertised[0].Name != "echo" || advertised[0].Description != echoSpec.Description ||
				!sameJSON(advertised[0].InputSchema, echoSpec.InputSchema) {
				t.Fatalf("advertised %+v", advertised)
			}
		})
	}
}

// The argv is exactly session.md §6's for each dialect, with and without
// tools; the bridge it names is a loopback /bridge, and its fresh
// 32-hex-digit token is only in the CLI's environment, which the argv
// names the way each real CLI reads it.
func TestArgv(t *testing.T) {
	system := notices + "\n\nBe brief."
	claudeBase := []string{"--print", "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--model", "m-1", "--system-prompt", system}
	codexBase := []string{"exec", "--json", "--skip-git-repo-check", "-s", "read-only", "-c", "include_apply_patch_tool=false",
		"--disable", "shell_tool", "--disable", "unified_exec", "--disable", "shell_snapshot", "--disable", "code_mode_host", "-m", "m-1"}
	bridge := regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/bridge$`)
	token := regexp.MustCompile(`^` + process.BridgeTokenEnv + `=[0-9a-f]{32}$`)
	tests := []struct {
		name, cli, task string
		tools           bool
		check           func(t *testing.T, args []string)
	}{
		{"claude without tools", "claude", "turns 1", false, func(t *testing.T, args []string) {
			if want := append(slices.Clone(claudeBase), "--tools", ""); !slices.Equal(args, want) {
				t.Fatalf("argv %q\nwant %q", args, want)
			}
		}},
		{"claude with the bridge", "claude", "call echo {\"a\":\"1\"}", true, func(t *testing.T, args []string) {
			n := len(claudeBase)
			if len(args) != n+7 || !slices.Equal(args[:n], claudeBase) ||
				!slices.Equal([]string{args[n], args[n+1], args[n+2], args[n+4], args[n+5], args[n+6]},
					[]string{"--tools", "mcp__claude_bridge__echo", "--mcp-config", "--strict-mcp-config", "--permission-mode", "bypassPermissions"}) {
				t.Fatalf("argv %q", args)
			}
			var cfg struct {
				MCPServers map[string]struct {
					Type, URL string
					Headers   map[string]string
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(args[n+3]), &cfg); err != nil {
				t.Fatal(err)
			}
			s := cfg.MCPServers["claude_bridge"]
			if len(cfg.MCPServers) != 1 || s.Type != "http" || !bridge.MatchString(s.URL) ||
				s.Headers["Authorization"] != "Bearer ${"+process.BridgeTokenEnv+"}" {
				t.Fatalf("--mcp-config %s", args[n+3])
			}
		}},
		{"codex without tools", "codex", "turns 1", false, func(t *testing.T, args []string) {
			if want := append(slices.Clone(codexBase), notices+"\n\nturns 1"); !slices.Equal(args, want) {
				t.Fatalf("argv %q\nwant %q", args, want)
			}
		}},
		{"codex with the bridge", "codex", "call echo {\"a\":\"1\"}", true, func(t *testing.T, args []string) {
			n := len(codexBase)
			if len(args) != n+5 || !slices.Equal(args[:n], codexBase) || args[n] != "-c" || args[n+2] != "-c" {
				t.Fatalf("argv %q", args)
			}
			url, err := strconv.Unquote(strings.TrimPrefix(args[n+1], "mcp_servers.claude_bridge.url="))
			if err != nil || !bridge.MatchString(url) {
				t.Fatalf("url override %q", args[n+1])
			}
			if want := `mcp_servers.claude_bridge.bearer_token_env_var="` + process.BridgeTokenEnv + `"`; args[n+3] != want {
				t.Fatalf("token override %q, want %q", args[n+3], want)
			}
			prompt := args[n+4]
			if !strings.HasPrefix(prompt, notices+"\n\n") || !strings.Contains(prompt, "claude_bridge") || !strings.HasSuffix(prompt, "\n\ncall echo {\"a\":\"1\"}") {
				t.Fatalf("prompt %q", prompt)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := options(t, fakeCLI(tt.cli), tt.task, &echo{}, &trace{})
			if !tt.tools {
				o.Tools = nil
			}
			if _, err := process.Run(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			var argv, env []string
			recorded(t, o.Workdir, "fake-argv.json", &argv)
			recorded(t, o.Workdir, "fake-env.json", &env)
			if argv[0] != o.Command {
				t.Fatalf("argv[0] %q", argv[0])
			}
			tt.check(t, argv[1:])
			i := slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, process.BridgeTokenEnv+"=") })
			switch {
			case !tt.tools && i >= 0:
				t.Fatalf("a CLI without tools got %s", env[i])
			case tt.tools && (i < 0 || !token.MatchString(env[i])):
				t.Fatalf("the CLI's environment has no bridge token: %q", env)
			case tt.tools && strings.Contains(strings.Join(argv, "\x00"), strings.TrimPrefix(env[i], process.BridgeTokenEnv+"=")):
				t.Fatalf("the bridge token is in the argv %q", argv)
			}
			var task string
			if b, err := os.ReadFile(filepath.Join(o.Workdir.AccessibleDir, "fake-task.txt")); err == nil {
				task = string(b)
			}
			if task != tt.task {
				t.Fatalf("the CLI read the task %q, want %q", task, tt.task)
			}
		})
	}
}

// The CLI's environment is built like a native tool's: the host's
// credentials stripped, HOME the synthetic one in the workdir.
func TestEnvHasNoHostSecret(t *testing.T) {
	o := options(t, fakeCLI("claude"), "turns 1", &echo{}, &trace{})
	if _, err := process.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	var env []string
	recorded(t, o.Workdir, "fake-env.json", &env)
	joined := strings.Join(env, "\n")
	if strings.Contains(joined, hostSecret) || strings.Contains(joined, "ANTHROPIC_API_KEY") {
		t.Fatalf("the CLI saw the host credential:\n%s", joined)
	}
	if !slices.Contains(env, "HOME="+filepath.Join(o.Workdir.AccessibleDir, ".capsule-home")) {
		t.Fatalf("HOME is not the synthetic home:\n%s", joined)
	}
}

// The bridge's token reaches the CLI whatever the capsule's shell
// settings say: a strip_env matching its variable does not drop it, and a
// host variable of its name, passed through baseline_env, does not
// replace it. Each dialect's CLI reads it as the real one does and calls
// the tool.
func TestBridgeTokenSurvivesTheCapsulesEnvSettings(t *testing.T) {
	settings := []struct {
		name            string
		baseline, strip []string
	}{
		{"strip_env matches it", nil, []string{"MURMUR_*", "*_TOKEN"}},
		{"baseline_env passes the host's", []string{process.BridgeTokenEnv}, nil},
	}
	for _, cli := range []string{"claude", "codex"} {
		for _, st := range settings {
			t.Run(cli+"/"+st.name, func(t *testing.T) {
				d := &echo{}
				o := options(t, fakeCLI(cli), `call echo {"a":"1"}`, d, &trace{})
				host := o.Env.Getenv
				o.Env.Getenv = func(k string) (string, bool) {
					if k == process.BridgeTokenEnv {
						return "from-the-host", true
					}
					return host(k)
				}
				o.Env.BaselineEnv, o.Env.StripEnv = st.baseline, st.strip
				if _, err := process.Run(context.Background(), o); err != nil {
					t.Fatal(err)
				}
				if len(d.calls) != 1 {
					t.Fatalf("dispatched %q", d.calls)
				}
				var env []string
				recorded(t, o.Workdir, "fake-env.json", &env)
				var tokens []string
				for _, kv := range env {
					if strings.HasPrefix(kv, process.BridgeTokenEnv+"=") {
						tokens = append(tokens, kv)
					}
				}
				if len(tokens) != 1 || strings.Contains(tokens[0], "from-the-host") {
					t.Fatalf("the CLI's token variables: %q", tokens)
				}
			})
		}
	}
}

// Every way the CLI can fail is a failed run: a coded error of its kind,
// "error: …" in out/result.txt, session_end failed.
func TestFailures(t *testing.T) {
	tests := []struct {
		name, cli, task string
		maxTurns        uint32
		traceFail       string
		kind            process.Kind
		msg             string
		trace           string
	}{
		{"max_turns exceeded", "claude", "turns 5", 2, "", process.KindMaxTurns, "exceeded inference.max_turns (2)",
			"inference 0 end_turn \ninference 1 end_turn \nsession_end 2 0 failed"},
		{"codex max_turns exceeded", "codex", "turns 5", 3, "", process.KindMaxTurns, "exceeded inference.max_turns (3)",
			"inference 0 end_turn \ninference 1 end_turn \ninference 2 end_turn \nsession_end 3 0 failed"},
		{"exit non-zero", "claude", "exit", 10, "", process.KindCLI, "boom: no credentials", "session_end 0 0 failed"},
		{"garbage", "claude", "garbage", 10, "", process.KindCLI, "exited without a result event (2 lines of its output were not JSON events)",
			"session_end 0 0 failed"},
		{"event line over 16 MiB", "claude", "huge", 10, "", process.KindCLI, "reading the agent CLI's events: bufio.Scanner: token too long",
			"session_end 0 0 failed"},
		{"error result", "claude", "error", 10, "", process.KindCLI, "error_during_execution: model overloaded", "session_end 0 0 failed"},
		{"not on PATH", "no-such-agent-cli", "turns 1", 10, "", process.KindCommand, "inference.command 'no-such-agent-cli' not found on PATH",
			"session_end 0 0 failed"},
		{"trace write fails", "claude", "call echo {\"a\":\"1\"}", 10, "tool_call", process.KindTrace, "trace write failed: disk full",
			"inference 0 tool_call echo\nsession_end 1 0 failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &trace{fail: tt.traceFail}
			cmd := tt.cli
			if cmd == "claude" || cmd == "codex" {
				cmd = fakeCLI(cmd)
			}
			o := options(t, cmd, tt.task, &echo{}, tr)
			o.MaxTurns = tt.maxTurns
			_, err := process.Run(context.Background(), o)
			var pe *diag.Error
			if !errors.As(err, &pe) || process.KindOf(err) != tt.kind || !strings.Contains(pe.Msg, tt.msg) {
				t.Fatalf("err = %v, want kind %d with %q", err, tt.kind, tt.msg)
			}
			if got := result(t, o.Workdir); got != "error: "+pe.Msg {
				t.Fatalf("result.txt %q", got)
			}
			if got := tr.text(); got != tt.trace {
				t.Fatalf("trace:\n%s\nwant:\n%s", got, tt.trace)
			}
		})
	}
}

// An assistant event of thinking alone is no turn.
func TestThinkingIsNoTurn(t *testing.T) {
	tr := &trace{}
	o := options(t, fakeCLI("claude"), "thinking", &echo{}, tr)
	o.MaxTurns = 1
	if _, err := process.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got, want := tr.text(), "inference 0 end_turn \nsession_end 1 0 ok"; got != want {
		t.Fatalf("trace:\n%s\nwant:\n%s", got, want)
	}
}

// A CLI that hangs (with a child of its own) is killed, group and all,
// when the caller cancels and when the timeout passes.
func TestHangingCLIIsKilled(t *testing.T) {
	tests := []struct {
		name    string
		cancel  bool
		timeout time.Duration
		kind    process.Kind
	}{
		{"cancelled", true, 0, process.KindCancelled},
		{"timed out", false, time.Second, process.KindTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tr := &trace{}
			if tt.cancel {
				tr.onInference = cancel // the CLI has started its child and is waiting
			}
			o := options(t, fakeCLI("claude"), "hang", &echo{}, tr)
			o.Timeout = tt.timeout
			_, err := process.Run(ctx, o)
			if process.KindOf(err) != tt.kind {
				t.Fatalf("err = %v, want kind %d", err, tt.kind)
			}
			b, err := os.ReadFile(filepath.Join(o.Workdir.AccessibleDir, "fake-pids"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range strings.Fields(string(b)) {
				pid, _ := strconv.Atoi(f)
				waitDead(t, pid)
			}
			if !strings.HasPrefix(result(t, o.Workdir), "error: ") {
				t.Fatalf("result.txt %q", result(t, o.Workdir))
			}
		})
	}
}

// waitDead fails unless pid is gone or a zombie within a loose bound: the
// group was sent SIGKILL before Run returned, and dying takes the
// kernel a moment.
func waitDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d of the CLI's group is still alive", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

// The CLI starts through the rlimit trampoline like a native tool (the
// fake CLI doubles as the trampoline binary, as mur does) and runs with
// capabilities.resources as hard limits, its argv unchanged.
func TestCLIRunsUnderTheTrampoline(t *testing.T) {
	d, tr := &echo{}, &trace{}
	o := options(t, fakeCLI("claude"), `call echo {"a":"1"}`, d, tr)
	o.Sandbox = &sandbox.Trampoline{Self: fakeCLI("claude"), Limits: sandbox.Rlimits{
		ExtraProcesses: 256, OpenFiles: 200, FileSizeBytes: 1 << 30, CPUSeconds: 120, MemoryBytes: 16 << 30}}
	if _, err := process.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	var limits []uint64
	recorded(t, o.Workdir, "fake-rlimits.json", &limits)
	if !slices.Equal(limits, []uint64{200, 1 << 30}) {
		t.Fatalf("hard RLIMIT_NOFILE, RLIMIT_FSIZE = %v, want [200 %d]", limits, 1<<30)
	}
	var argv []string
	recorded(t, o.Workdir, "fake-argv.json", &argv)
	if argv[0] != o.Command || argv[1] != "--print" {
		t.Fatalf("argv %q", argv)
	}
	if len(d.calls) != 1 {
		t.Fatalf("dispatched %q", d.calls)
	}
}

// inference.command given as a relative path is mur's path, never one
// inside the workdir the CLI runs in, where the agent's tools write: a
// claude planted there does not run.
func TestRelativeCommandIsNotTheWorkdirs(t *testing.T) {
	t.Chdir(filepath.Dir(fakeCLI("claude")))
	o := options(t, "./claude", "turns 1", &echo{}, &trace{})
	planted := filepath.Join(o.Workdir.AccessibleDir, "claude")
	if err := os.WriteFile(planted, []byte("#!/bin/sh\necho planted > planted.txt\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := process.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(o.Workdir.AccessibleDir, "planted.txt")); err == nil {
		t.Fatal("the claude planted in the workdir ran")
	}
}

// A child the CLI leaves behind when it exits is killed with its group:
// nothing the CLI started outlives the run.
func TestOrphanOfTheCLIIsKilled(t *testing.T) {
	o := options(t, fakeCLI("claude"), "orphan", &echo{}, &trace{})
	if _, err := process.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(o.Workdir.AccessibleDir, "fake-pids"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	waitDead(t, pid)
}
