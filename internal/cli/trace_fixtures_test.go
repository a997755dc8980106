package cli

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Trace fixtures for the `mur trace` tests, the sessions Murmur's own
// tests (crates/murmur-cli/tests/trace_cmd.rs) are written against.

// Session ids: the first 12 hex digits of each sort them oldest first.
const (
	sesA  = "ses_aaaaaaaaaaaa4aaa8aaa000000000001"
	sesB  = "ses_bbbbbbbbbbbb4bbb8bbb000000000002"
	sesC  = "ses_cccccccccccc4ccc8ccc000000000003"
	sesD  = "ses_dddddddddddd4ddd8ddd000000000004"
	sesE  = "ses_eeeeeeeeeeee4eee8eee000000000005"
	sesF  = "ses_ffffffffffff4fff8fff000000000006"
	sesMT = "ses_dddddddddddd4ddd8ddd000000000010"
)

// rec is one trace line: the keys in the order given, each value as JSON.
func rec(kv ...any) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv[i])
		v, err := json.Marshal(kv[i+1])
		if err != nil {
			panic(err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString("}\n")
	return b.String()
}

func startRec(sid, capsule, version, model string, maxTurns int) string {
	return rec("event_type", "session_start", "session_id", sid, "timestamp", 1000, "capsule_name", capsule,
		"capsule_version", version, "model", model, "max_turns", maxTurns, "capabilities", []string{}, "tools_declared", []string{})
}

// inferRec is an inference line; tool is nil or the called tool's name.
func inferRec(sid string, turn, in, out int, decision string, tool any) string {
	return rec("event_type", "inference", "session_id", sid, "timestamp", 1100, "turn", turn, "input_tokens", in,
		"output_tokens", out, "decision", decision, "tool_name", tool)
}

// toolRec is a tool_call line; extra are more keys and values after status.
func toolRec(sid string, turn int, tool string, ms int, status string, extra ...any) string {
	kv := []any{"event_type", "tool_call", "session_id", sid, "timestamp", 1200, "turn", turn, "tool_name", tool,
		"input_bytes", 10, "output_bytes", 5, "duration_ms", ms, "status", status}
	return rec(append(kv, extra...)...)
}

func shellRec(sid string, turn int, command string, exit, ms int) string {
	return rec("event_type", "shell", "session_id", sid, "timestamp", 1300, "turn", turn, "command", command,
		"exit_code", exit, "stdout_bytes", 6, "stderr_bytes", 0, "duration_ms", ms)
}

func endRec(sid string, turns, in, out, tools, shells, ms int, status string) string {
	return rec("event_type", "session_end", "session_id", sid, "timestamp", 1500, "total_turns", turns,
		"total_input_tokens", in, "total_output_tokens", out, "total_tool_calls", tools, "total_shell_calls", shells,
		"duration_ms", ms, "exit_status", status)
}

// fixtureA: 2 turns, one bash call and its shell command, ok, 500ms.
var fixtureA = startRec(sesA, "test-capsule", "0.1.0", "claude-3-5-sonnet", 10) +
	inferRec(sesA, 1, 1000, 200, "tool_call", "bash") +
	toolRec(sesA, 1, "bash", 100, "ok") +
	shellRec(sesA, 1, "echo hello", 0, 50) +
	inferRec(sesA, 2, 1200, 150, "end_turn", nil) +
	endRec(sesA, 2, 2200, 350, 1, 1, 500, "ok")

// fixtureB: 5 turns of bash (one failed, one command exiting 1), a
// compaction at turn 3, max_turns_reached after 1700ms.
var fixtureB = func() string {
	s := startRec(sesB, "test-capsule", "0.1.0", "claude-3-5-sonnet", 5)
	for i, t := range []struct {
		in, out, toolMS int
		status, command string
		exit, shellMS   int
	}{
		{1500, 300, 200, "ok", "echo test", 0, 80},
		{1800, 250, 150, "error", "cat nonexistent", 1, 30},
		{2000, 200, 180, "ok", "ls /tmp", 0, 40},
		{2100, 180, 220, "ok", "pwd", 0, 10},
		{2300, 160, 190, "ok", "echo done", 0, 20},
	} {
		turn := i + 1
		s += inferRec(sesB, turn, t.in, t.out, "tool_call", "bash") + toolRec(sesB, turn, "bash", t.toolMS, t.status) +
			shellRec(sesB, turn, t.command, t.exit, t.shellMS)
		if turn == 3 {
			s += rec("event_type", "compaction", "session_id", sesB, "timestamp", 3000, "turn", 3, "tokens_before", 5300, "tokens_after", 2000)
		}
	}
	return s + endRec(sesB, 5, 9700, 1090, 5, 5, 1700, "max_turns_reached")
}()

// fixtureNoTools: one turn, no calls.
var fixtureNoTools = startRec(sesC, "simple-capsule", "0.2.0", "claude-haiku", 20) +
	inferRec(sesC, 1, 500, 100, "end_turn", nil) +
	endRec(sesC, 1, 500, 100, 0, 0, 200, "ok")

// multiTask is a session of n tasks; task i (from 0) takes 2(i+1) turns.
func multiTask(n int) string {
	s := startRec(sesMT, "mt-capsule", "0.1.0", "claude-test", 20)
	var turns, in, out int
	for i := range n {
		task, ctx := fmt.Sprintf("tsk_%08x%024d", i, 0), fmt.Sprintf("ctx_%08x%024d", i, 0)
		t, input, output := (i+1)*2, (i+1)*500, (i+1)*100
		// a2a_task_received is an event the trace commands do not use.
		s += rec("event_type", "a2a_task_received", "session_id", sesMT, "timestamp", 2000, "task_id", task, "context_id", ctx,
			"message_id", fmt.Sprintf("msg-%d", i), "traceparent_from_caller", nil)
		s += rec("event_type", "task_start", "session_id", sesMT, "timestamp", 2001, "task_id", task, "context_id", ctx,
			"source", "a2a", "message_parts_bytes", 42)
		for turn := range t {
			s += inferRec(sesMT, turn, input/t, output/t, "end_turn", nil)
		}
		s += rec("event_type", "task_end", "session_id", sesMT, "timestamp", 2003, "task_id", task, "exit_status", "ok",
			"duration_ms", (i+1)*200, "turns", t, "input_tokens", input, "output_tokens", output, "tool_calls", 0, "shell_calls", 0)
		turns, in, out = turns+t, in+input, out+output
	}
	return s + endRec(sesMT, turns, in, out, 0, 0, n*500, "ok")
}

// oneBashTurn is a one-turn session whose bash call ran command for ms.
func oneBashTurn(sid, command string, ms, sessionMS int) string {
	return startRec(sid, "t", "0.1.0", "m", 10) +
		inferRec(sid, 0, 100, 20, "tool_call", "bash") +
		toolRec(sid, 0, "bash", ms, "ok", "input", map[string]string{"command": command}) +
		endRec(sid, 1, 100, 20, 1, 0, sessionMS, "ok")
}

// twoBashTurns is a session of two bash calls of ms1 and ms2.
func twoBashTurns(ms1, ms2 int) string {
	const sid = "ses_rrrrrrrrrrrr4rrr8rrr000000000001"
	return startRec(sid, "t", "0.1.0", "m", 10) +
		inferRec(sid, 0, 100, 20, "tool_call", "bash") +
		toolRec(sid, 0, "bash", ms1, "ok", "input", map[string]string{"command": "cmd1"}) +
		inferRec(sid, 1, 120, 10, "tool_call", "bash") +
		toolRec(sid, 1, "bash", ms2, "ok", "input", map[string]string{"command": "cmd2"}) +
		endRec(sid, 2, 220, 30, 2, 0, 5000, "ok")
}

// inputSession is a bash call and an end turn; extra are the tool_call's
// input and output keys.
func inputSession(sid, capsule string, extra ...any) string {
	return startRec(sid, capsule, "1.0.0", "claude-test", 10) +
		inferRec(sid, 0, 100, 20, "tool_call", "bash") +
		toolRec(sid, 0, "bash", 30, "ok", extra...) +
		inferRec(sid, 1, 120, 10, "end_turn", nil) +
		endRec(sid, 2, 220, 30, 1, 0, 400, "ok")
}

// toolUse is one tool call of a redundancy fixture: its turn, tool, input
// and the state_effect and resource_id it declares ("" for none).
type toolUse struct {
	turn             int
	tool             string
	input            map[string]string
	effect, resource string
	emptyResource    bool // declare resource_id as ""
}

// callSession is a session of the given tool calls.
func callSession(sid string, calls ...toolUse) string {
	s := startRec(sid, "reader", "0.1.0", "claude-3-5-sonnet", 10)
	for _, c := range calls {
		var extra []any
		if c.input != nil {
			extra = append(extra, "input", c.input)
		}
		if c.effect != "" {
			extra = append(extra, "state_effect", c.effect)
		}
		if c.resource != "" || c.emptyResource {
			extra = append(extra, "resource_id", c.resource)
		}
		s += toolRec(sid, c.turn, c.tool, 10, "ok", extra...)
	}
	return s + endRec(sid, len(calls), 100, 50, len(calls), 0, 300, "ok")
}

func path(p string) map[string]string { return map[string]string{"path": p} }

var (
	// Two declared reads of src/foo.rs: the second is redundant.
	fixtureReread = callSession(sesD, toolUse{turn: 1, tool: "read_file", input: path("src/foo.rs"), effect: "read"},
		toolUse{turn: 2, tool: "read_file", input: path("src/foo.rs"), effect: "read"})
	// A declared mutate between two reads: neither read is redundant.
	fixtureWriteClears = callSession(sesE, toolUse{turn: 1, tool: "read_file", input: path("src/foo.rs"), effect: "read"},
		toolUse{turn: 2, tool: "write_file", input: path("src/foo.rs"), effect: "mutate"},
		toolUse{turn: 3, tool: "read_file", input: path("src/foo.rs"), effect: "read"})
	// Two tools reading src/bar.rs through file_path: redundant across tools.
	fixtureCrossTool = callSession(sesF,
		toolUse{turn: 1, tool: "find_in_files", input: map[string]string{"file_path": "src/bar.rs", "pattern": "foo"}, effect: "read"},
		toolUse{turn: 2, tool: "read_file", input: map[string]string{"file_path": "src/bar.rs"}, effect: "read"})
	// Reads with no path field, and one with no input at all.
	fixtureNoPathField = callSession("ses_11111111111145558888000000000007",
		toolUse{turn: 1, tool: "find_in_files", input: map[string]string{"pattern": "needle"}, effect: "read"},
		toolUse{turn: 2, tool: "read_file", input: map[string]string{"pattern": "needle"}, effect: "read"},
		toolUse{turn: 3, tool: "read_file", effect: "read"})
	// A tool never seen before, its operation in its input, declaring reads.
	fixtureNovelTool = callSession("ses_22222222222245558888000000000008",
		toolUse{turn: 1, tool: "acme-codenav", input: map[string]string{"operation": "find_references", "path": "src/lib.rs"}, effect: "read"},
		toolUse{turn: 2, tool: "acme-codenav", input: map[string]string{"operation": "goto_def", "path": "src/lib.rs"}, effect: "read"})
	// The same tool declaring a mutate between its reads.
	fixtureNovelToolMutate = callSession("ses_33333333333345558888000000000009",
		toolUse{turn: 1, tool: "acme-codenav", input: map[string]string{"operation": "find_references", "path": "src/lib.rs"}, effect: "read"},
		toolUse{turn: 2, tool: "acme-codenav", input: map[string]string{"operation": "apply_edit", "path": "src/lib.rs"}, effect: "mutate"},
		toolUse{turn: 3, tool: "acme-codenav", input: map[string]string{"operation": "find_references", "path": "src/lib.rs"}, effect: "read"})
	// Two reads that declare nothing.
	fixtureUndeclared = callSession("ses_44444444444445558888000000000010",
		toolUse{turn: 1, tool: "mystery", input: path("src/foo.rs")},
		toolUse{turn: 2, tool: "mystery", input: path("src/foo.rs")})
	// An undeclared call between two declared reads.
	fixtureUndeclaredInvalidates = callSession("ses_55555555555545558888000000000011",
		toolUse{turn: 1, tool: "read_file", input: path("src/foo.rs"), effect: "read"},
		toolUse{turn: 2, tool: "mystery", input: path("src/foo.rs")},
		toolUse{turn: 3, tool: "read_file", input: path("src/foo.rs"), effect: "read"})
	// Reads of a symbol that only resource_id names.
	fixtureResourceSymbol = callSession("ses_44444444444445558888000000000010",
		toolUse{turn: 1, tool: "murmur-tool-code-graph", input: map[string]string{"symbol": "Foo::bar"}, effect: "read", resource: "Foo::bar"},
		toolUse{turn: 2, tool: "murmur-tool-code-graph", input: map[string]string{"symbol": "Foo::bar"}, effect: "read", resource: "Foo::bar"})
	// A resource_id that is neither the input's path nor its symbol.
	fixtureResourcePrecedence = callSession("ses_55555555555545558888000000000011",
		toolUse{turn: 1, tool: "acme-codenav", input: map[string]string{"path": "src/foo.rs", "symbol": "Widget"}, effect: "read", resource: "sym:Widget#7"},
		toolUse{turn: 2, tool: "acme-codenav", input: map[string]string{"path": "src/foo.rs", "symbol": "Widget"}, effect: "read", resource: "sym:Widget#7"})
	// An empty resource_id: the path field decides.
	fixtureResourceEmpty = callSession("ses_66666666666645558888000000000012",
		toolUse{turn: 1, tool: "acme-codenav", input: path("src/foo.rs"), effect: "read", emptyResource: true},
		toolUse{turn: 2, tool: "acme-codenav", input: path("src/foo.rs"), effect: "read", emptyResource: true})
	// A declared mutate of a declared resource between two reads of it.
	fixtureResourceMutate = callSession("ses_77777777777745558888000000000013",
		toolUse{turn: 1, tool: "murmur-tool-code-graph", input: map[string]string{"symbol": "Widget"}, effect: "read", resource: "sym:Widget"},
		toolUse{turn: 2, tool: "murmur-tool-code-graph", input: map[string]string{"symbol": "Widget"}, effect: "mutate", resource: "sym:Widget"},
		toolUse{turn: 3, tool: "murmur-tool-code-graph", input: map[string]string{"symbol": "Widget"}, effect: "read", resource: "sym:Widget"})
)

// fixtureReopen: one task an on-task-end hook reopened once.
var fixtureReopen = startRec(sesC, "test-capsule", "0.1.0", "claude-3-5-sonnet", 10) +
	rec("event_type", "task_start", "session_id", sesC, "timestamp", 3050, "task_id", "tsk_1", "context_id", "ctx_1", "source", "a2a", "message_parts_bytes", 12) +
	inferRec(sesC, 1, 1000, 200, "end_turn", nil) +
	rec("event_type", "task_reopened", "session_id", sesC, "timestamp", 3150, "task_id", "tsk_1", "hook_name", "gatekeeper",
		"reason", "tests still fail", "reopen_number", 1) +
	inferRec(sesC, 2, 1100, 150, "end_turn", nil) +
	rec("event_type", "task_end", "session_id", sesC, "timestamp", 3300, "task_id", "tsk_1", "exit_status", "ok", "duration_ms", 250,
		"turns", 2, "input_tokens", 2100, "output_tokens", 350, "tool_calls", 0, "shell_calls", 0, "reopen_count", 1) +
	endRec(sesC, 2, 2100, 350, 0, 0, 400, "ok")
