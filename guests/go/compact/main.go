//go:build wasip1

// Command compact is the first-party compaction hook (bound on-compaction):
// it asks the capsule's own model, through murmur:runtime/inference's
// run-inference, to summarise the conversation, and answers
// replace-context with one user message holding the original task and the
// summary. With no assistant tool calls and no tool messages in it, the
// replacement always passes the runtime's tool-call safety net
// (shared/spec/wit.md §6.6). A failed summary is the hook's err, which
// fails the session rather than let it overflow its window.
package main

import (
	"encoding/json"
	"strings"
	"unsafe"

	"github.com/mur-go/mur/guests/go/hookabi"
)

func main() {}

// defaultSystem is the summariser's instructions when the manifest sets no
// inference.compaction.system_prompt.
const defaultSystem = "You compress the working history of an AI agent so it can continue its task " +
	"from your summary alone. Keep: the goal, decisions made and why, facts learned, files and " +
	"commands touched with their outcomes, errors met, and exactly what remains to do. Be concise; " +
	"write plain text, no preamble."

// maxTranscript bounds what is sent to the model, keeping the most recent.
const maxTranscript = 400_000

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-compaction
func onCompaction(msgsPtr unsafe.Pointer, msgsLen uint32, sessionTokens uint64, threshold float64,
	modelSome uint32, modelPtr unsafe.Pointer, modelLen uint32,
	sysSome uint32, sysPtr unsafe.Pointer, sysLen uint32) unsafe.Pointer {
	msgs := hookabi.Messages(msgsPtr, msgsLen)
	model, hasModel := hookabi.OptStr(modelSome, modelPtr, modelLen)
	system, hasSystem := hookabi.OptStr(sysSome, sysPtr, sysLen)
	hookabi.Begin()
	if !hasSystem {
		system = defaultSystem
	}
	task, transcript := render(msgs)
	prompt := "Summarise the agent conversation below.\n\n" + transcript
	var m *string
	if hasModel {
		m = &model
	}
	summary, err := runInference([]hookabi.Message{{Role: "user", Content: prompt}}, system, m)
	if err != "" {
		return hookabi.Err("compact: summarising the history failed: " + err)
	}
	text := strings.TrimSpace(task)
	if text != "" {
		text += "\n\n---\n\n"
	}
	text += "Summary of the work so far (the earlier conversation was compacted to fit the context window):\n\n" + strings.TrimSpace(summary)
	return hookabi.ReplaceContext([]hookabi.Message{{Role: "user", Content: blocks(text)}})
}

// blocks is the JSON text of one text block, the content encoding the
// runtime reconstructs (§6.6).
func blocks(text string) string {
	b, _ := json.Marshal([]map[string]string{{"type": "text", "text": text}})
	return string(b)
}

// render turns the hook's view of the history into plain text, returning
// the first user message's text (the task) apart.
func render(msgs []hookabi.Message) (task, transcript string) {
	var b strings.Builder
	for i, m := range msgs {
		text := contentText(m.Content)
		if i == 0 && m.Role == "user" {
			task = text
		}
		b.WriteString(m.Role)
		b.WriteString(": ")
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	t := b.String()
	if len(t) > maxTranscript {
		t = "[earlier history omitted]\n\n" + t[len(t)-maxTranscript:]
	}
	return task, t
}

// contentText reads a message's content: a tool message's marker object,
// a block array (text and tool calls), or raw text.
func contentText(content string) string {
	var tool struct {
		Marker bool            `json:"__murmur_tool_msg__"`
		ID     string          `json:"tool_call_id"`
		Error  bool            `json:"is_error"`
		Body   json.RawMessage `json:"body"`
	}
	if json.Unmarshal([]byte(content), &tool) == nil && tool.Marker {
		status := "result"
		if tool.Error {
			status = "error"
		}
		return "tool " + status + " (" + tool.ID + "): " + contentText(string(tool.Body))
	}
	var blocks []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if json.Unmarshal([]byte(content), &blocks) != nil {
		return content
	}
	var parts []string
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			parts = append(parts, bl.Text)
		case "tool_call":
			parts = append(parts, "[called tool "+bl.Name+" with "+string(bl.Input)+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// The lifecycle functions compact does nothing at.

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-stage
func onStage(uint32, uint32) unsafe.Pointer { hookabi.Begin(); return hookabi.None() }

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-session-start
func onSessionStart(uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32) unsafe.Pointer {
	hookabi.Begin()
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-task-start
func onTaskStart(uint32, uint32, uint32, uint32, uint32, uint32, uint64) unsafe.Pointer {
	hookabi.Begin()
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-inference
func onInference(unsafe.Pointer) unsafe.Pointer { hookabi.Begin(); return hookabi.None() }

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-tool-call
func onToolCall(uint32, uint32, uint32, uint64, uint64, uint64, uint32, uint32) unsafe.Pointer {
	hookabi.Begin()
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-shell
func onShell(uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint32, uint64, uint64, uint64) unsafe.Pointer {
	hookabi.Begin()
	return hookabi.None()
}

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-task-end
func onTaskEnd(uint32, uint32, uint32, uint32) unsafe.Pointer { hookabi.Begin(); return hookabi.None() }

//go:wasmexport murmur:hook/lifecycle@0.5.0#on-session-end
func onSessionEnd(uint32, uint64, uint64, uint32, uint32, uint64, uint32, uint32) unsafe.Pointer {
	hookabi.Begin()
	return hookabi.None()
}
