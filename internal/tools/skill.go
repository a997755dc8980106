package tools

import (
	"context"
	"fmt"
)

// SkillTool answers with a skill's guidance text, the way the agent loop
// serves skills (session.md §2.4): status passed, summary "Skill <name>
// guidance", data the text. Text is what staging verified and kept in
// memory; the copy in tools/<name>/skill.md is never read back, because
// guests and native tools can rewrite or relink it while the session runs.
type SkillTool struct {
	Name string
	Text string
}

// Invoke implements Tool.
func (t *SkillTool) Invoke(ctx context.Context, _ ToolInput) (ToolResult, error) {
	return ToolResult{
		Status:  StatusPassed,
		Summary: Str(fmt.Sprintf("Skill %s guidance", t.Name)),
		Data:    Str(t.Text),
	}, nil
}
