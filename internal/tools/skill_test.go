package tools

import (
	"context"
	"testing"
)

func TestSkillTool(t *testing.T) {
	r, err := (&SkillTool{Name: "style", Text: "# guidance\nDo it well."}).Invoke(context.Background(), ToolInput{Data: Str("ignored")})
	if err != nil || !sameResult(r, ToolResult{Status: StatusPassed, Summary: Str("Skill style guidance"), Data: Str("# guidance\nDo it well.")}) {
		t.Fatalf("%+v, %v", r, err)
	}
}
