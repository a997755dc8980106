package murmurhost

import (
	"context"
	"fmt"
	"os"
)

// SkillTool answers with a skill's guidance text (tools/<name>/skill.md),
// read at call time, the way the agent loop serves skills (session.md
// §2.4): status passed, summary "Skill <name> guidance", data the text.
type SkillTool struct {
	Name string
	// Path is the skill.md file.
	Path string
}

// Invoke implements Tool.
func (t *SkillTool) Invoke(ctx context.Context, _ ToolInput) (ToolResult, error) {
	b, err := os.ReadFile(t.Path)
	if err != nil {
		return ToolResult{}, errFailed(t.Name, fmt.Sprintf("failed to read skill '%s': %v", t.Name, err), err)
	}
	return ToolResult{
		Status:  StatusPassed,
		Summary: Str(fmt.Sprintf("Skill %s guidance", t.Name)),
		Data:    Str(string(b)),
	}, nil
}
