package agent

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
)

// toolMarker marks a tool message encoded for hooks (session.md §3.4).
const toolMarker = "__murmur_tool_msg__"

// compact is step 13 (session.md §3.4): past the threshold, offer the
// conversation to the compaction hooks and commit a replacement that
// survives reconstruction and the safety net. A returned failure is a
// hook's, fatal to the attempt.
func (l *loop) compact(ctx context.Context, a *attemptRun, turn uint32, sessionTokens uint64) *diag.Error {
	c := l.s.Capsule
	if c.ContextMaxTokens == nil || *c.ContextMaxTokens == 0 {
		return nil
	}
	window := *c.ContextMaxTokens
	ratio := float32(sessionTokens) / float32(window)
	if ratio < c.Inference.Compaction.EffectiveThreshold() {
		return nil
	}
	msgs, err := hookMessages(a.msgs)
	if err != nil {
		return failure(KindIO, err, "encoding the conversation for compaction: %v", err)
	}
	ev := CompactionEvent{Messages: msgs, SessionTokens: sessionTokens, Threshold: float64(sessionTokens) / float64(window)}
	if cc := c.Inference.Compaction; cc != nil {
		ev.Model = cc.Model
		ev.SystemPrompt = cc.SystemPrompt
		if ev.SystemPrompt == nil && cc.SystemPromptFile != "" {
			if b, err := os.ReadFile(filepath.Join(l.s.ProjectDir, cc.SystemPromptFile)); err == nil {
				s := string(b)
				ev.SystemPrompt = &s
			}
		}
	}
	l.emitTask(a.taskRun, observe.Event{Kind: observe.CompactionStart, Turn: turn, InputTokens: sessionTokens})
	start, compactionStatus := l.now(), "kept"
	rep, err := l.hooks.Compaction(ctx, ev)
	defer func() {
		l.emitTask(a.taskRun, observe.Event{Kind: observe.CompactionEnd, Turn: turn, Status: compactionStatus, Duration: l.now().Sub(start)})
	}()
	if err != nil {
		compactionStatus = "error"
		return &diag.Error{Code: CodeRun, Err: diag.Mark(err, KindCompaction), Msg: fmt.Sprintf("compaction hook failed: %v", err)}
	}
	if rep == nil {
		l.bootstrapLog("[compaction] threshold reached but no hook returned replace-context; continuing without compaction")
		return nil
	}
	rebuilt := rebuild(rep.Messages)
	if !pairedCalls(rebuilt) {
		l.bootstrapLog("[compaction] compacted result has an unresolved tool_call; continuing without compaction")
		return nil
	}
	a.msgs, a.enc, compactionStatus = rebuilt, nil, "replaced"
	after := sessionTokens
	if js, err := encode(rebuilt); err == nil {
		after = l.tok.Count(js)
	}
	l.cont = continuation{}
	l.writeLogged(trace.TypeCompaction, &trace.Compaction{Turn: turn, TokensBefore: sessionTokens, TokensAfter: after})
	if cc := c.Inference.Compaction; cc != nil && cc.DumpSummaries {
		l.dumpSummary(rebuilt, turn, sessionTokens, after)
	}
	l.bootstrapLog(fmt.Sprintf("[compaction] hook compaction at turn %d; new session_tokens: %d", turn, after))
	return nil
}

// hookMessages encodes the conversation for hooks: content as the JSON of
// its blocks, a tool message as the marker object around them.
func hookMessages(msgs []any) ([]HookMessage, error) {
	out := make([]HookMessage, 0, len(msgs))
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		v := mm["content"]
		if role == "tool" {
			v = map[string]any{toolMarker: true, "body": mm["content"], "is_error": mm["is_error"], "tool_call_id": mm["tool_call_id"]}
		}
		s, err := encode(v)
		if err != nil {
			return nil, err
		}
		out = append(out, HookMessage{Role: role, Content: s})
	}
	return out, nil
}

// rebuild turns a hook's messages back into the conversation: tool
// messages only when the marker came back with a tool_call_id; other
// content kept as blocks when it is a JSON array, else made one text
// block.
func rebuild(hms []HookMessage) []any {
	out := make([]any, 0, len(hms))
	for _, h := range hms {
		var v any
		parsed := decode(h.Content, &v) == nil
		if h.Role == "tool" {
			obj, _ := v.(map[string]any)
			id, _ := obj["tool_call_id"].(string)
			if !parsed || obj[toolMarker] != true || id == "" {
				continue
			}
			isErr, _ := obj["is_error"].(bool)
			out = append(out, map[string]any{"role": "tool", "tool_call_id": id, "is_error": isErr, "content": asBlocks(obj["body"], true, "")})
			continue
		}
		out = append(out, map[string]any{"role": h.Role, "content": asBlocks(v, parsed, h.Content)})
	}
	return out
}

func asBlocks(v any, parsed bool, raw string) []any {
	if !parsed {
		return textBlocks(raw)
	}
	switch t := v.(type) {
	case []any:
		return t
	case string:
		return textBlocks(t)
	}
	s, _ := encode(v)
	return textBlocks(s)
}

// pairedCalls is the safety net: every tool_call id in assistant messages
// has a tool message and every tool message answers one.
func pairedCalls(msgs []any) bool {
	calls, results := map[string]bool{}, map[string]bool{}
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		switch mm["role"] {
		case "assistant":
			blocks, _ := mm["content"].([]any)
			for _, b := range blocks {
				if bm, _ := b.(map[string]any); bm["type"] == "tool_call" {
					id, _ := bm["id"].(string)
					calls[id] = true
				}
			}
		case "tool":
			id, _ := mm["tool_call_id"].(string)
			results[id] = true
		}
	}
	return maps.Equal(calls, results)
}

// dumpSummary appends out/compaction-summaries.jsonl's line (§7.3);
// failures go to the bootstrap log.
func (l *loop) dumpSummary(msgs []any, turn uint32, before, after uint64) {
	var parts []string
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" {
			continue
		}
		if t := (response{Content: blocksOf(mm)}).text(); t != "" {
			parts = append(parts, t)
		}
	}
	line, err := encode(map[string]any{"summary": strings.Join(parts, "\n"), "tokens_after": after, "tokens_before": before, "turn": turn})
	if err == nil {
		err = l.s.WriteSessionFile(filepath.Join(l.s.OutDir, "compaction-summaries.jsonl"), []byte(line+"\n"), os.O_CREATE|os.O_APPEND)
	}
	if err != nil {
		l.bootstrapLog(fmt.Sprintf("[compaction] writing out/compaction-summaries.jsonl failed: %v", err))
	}
}

func blocksOf(m map[string]any) []any {
	b, _ := m["content"].([]any)
	return slices.Clip(b)
}
