package murmurhost

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkillTool(t *testing.T) {
	path := filepath.Join(t.TempDir(), "skill.md")
	if err := os.WriteFile(path, []byte("# guidance\nDo it well."), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := (&SkillTool{Name: "style", Path: path}).Invoke(context.Background(), ToolInput{Data: Str("ignored")})
	if err != nil || !sameResult(r, ToolResult{Status: StatusPassed, Summary: Str("Skill style guidance"), Data: Str("# guidance\nDo it well.")}) {
		t.Fatalf("%+v, %v", r, err)
	}
	_, err = (&SkillTool{Name: "gone", Path: path + ".missing"}).Invoke(context.Background(), ToolInput{})
	if err == nil || !strings.HasPrefix(err.Error(), "failed to read skill 'gone': ") {
		t.Fatalf("err = %v", err)
	}
}
