package hooks

import (
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/agent"
)

// The event records as dynamic WIT values (package wit's Go
// representation), per contract version where the records differ.

func optStr(p *string) wit.OptionValue {
	if p == nil {
		return wit.None()
	}
	return wit.Some(*p)
}

func strList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func messageList(ms []agent.HookMessage) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = []any{m.Role, m.Content}
	}
	return out
}

func stageValue(shellAllow []string) []any { return []any{strList(shellAllow)} }

func sessionContextValue(e agent.SessionContext) []any {
	return []any{e.CapsuleName, e.CapsuleVersion, e.SessionID, e.Model, strList(e.Capabilities)}
}

func taskStartValue(e agent.TaskStartEvent) []any {
	return []any{e.TaskID, e.ContextID, e.Source, e.InputBytes}
}

func inferenceValue(e agent.InferenceEvent) []any {
	return []any{e.Turn, e.InputTokens, e.OutputTokens, e.Decision,
		optStr(e.ToolName), optStr(e.Prompt), optStr(e.Output), optStr(e.Tools)}
}

func toolValue(e agent.ToolEvent) []any {
	return []any{e.Turn, e.ToolName, e.InputBytes, e.OutputBytes, e.DurationMS, e.Status}
}

// maxShellCommand is how much of a shell command hooks see (wit.md §6.4);
// binary is never cut.
const maxShellCommand = 200

func shellValue(v Version, e agent.ShellEvent) []any {
	cmd := e.Command
	if r := []rune(cmd); len(r) > maxShellCommand {
		cmd = string(r[:maxShellCommand])
	}
	out := []any{e.Turn}
	if v != Lifecycle020 {
		out = append(out, e.Binary)
	}
	return append(out, cmd, e.ExitCode, e.Stdout, e.Stderr, e.StdoutBytes, e.StderrBytes, e.DurationMS)
}

func compactionValue(v Version, e agent.CompactionEvent) []any {
	out := []any{messageList(e.Messages), e.SessionTokens, e.Threshold}
	if v != Lifecycle020 {
		out = append(out, optStr(e.Model), optStr(e.SystemPrompt))
	}
	return out
}

func taskEndValue(e agent.TaskEndEvent) []any { return []any{e.TaskID, e.ExitStatus} }

func sessionEndValue(e agent.SessionEndEvent) []any {
	return []any{e.TotalTurns, e.TotalInputTokens, e.TotalOutputTokens, e.TotalToolCalls, e.TotalShellCalls, e.DurationMS, e.ExitStatus}
}

// messagesFrom reads a replace-context payload.
func messagesFrom(v any) []agent.HookMessage {
	list, _ := v.([]any)
	out := make([]agent.HookMessage, 0, len(list))
	for _, m := range list {
		f, _ := m.([]any)
		if len(f) != 2 {
			continue
		}
		role, _ := f[0].(string)
		content, _ := f[1].(string)
		out = append(out, agent.HookMessage{Role: role, Content: content})
	}
	return out
}

// toolManifest is one write-manifests entry.
type toolManifest struct{ binary, content string }

func manifestsFrom(v any) []toolManifest {
	list, _ := v.([]any)
	out := make([]toolManifest, 0, len(list))
	for _, m := range list {
		f, _ := m.([]any)
		if len(f) != 2 {
			continue
		}
		b, _ := f[0].(string)
		c, _ := f[1].(string)
		out = append(out, toolManifest{binary: b, content: c})
	}
	return out
}
