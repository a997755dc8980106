package agent

import (
	"context"
	"slices"

	"github.com/mur-go/mur/stage"
	"github.com/mur-go/mur/tools"
)

// errNoShell answers a call to a shell.allow binary when the loop was
// given no shell runner: the model is told plainly rather than the call
// being dropped.
const errNoShell = "shell tools are not available in this session"

// dispatcher resolves a tool_call name the way session.md §2.4 orders it:
// a native tool, a shell.allow binary, a skill, an allowlisted WASM tool.
type dispatcher struct {
	session   *stage.Session
	tools     tools.Tools
	allowlist []string
	shell     tools.ShellRunner
}

// call runs one tool call and returns the result text for the model and
// whether it is an error (session.md §2.5).
func (d *dispatcher) call(ctx context.Context, c toolCall) (string, bool) {
	t, errText := d.resolve(c.Name)
	if t == nil {
		return errText, true
	}
	in := c.Input
	r, err := t.Invoke(ctx, tools.ToolInput{Data: &in})
	if err != nil {
		return err.Error(), true
	}
	text := "tool returned no data"
	switch {
	case r.Data != nil:
		text = *r.Data
	case r.Summary != nil:
		text = *r.Summary
	}
	return text, r.Status != tools.StatusPassed
}

func (d *dispatcher) resolve(name string) (tools.Tool, string) {
	var staged *stage.Artifact
	for _, a := range d.session.Artifacts {
		if a.Name == name {
			staged = a
			break
		}
	}
	allowed := slices.Contains(d.allowlist, name)
	if staged != nil && staged.Kind == stage.KindNative && allowed {
		if t, ok := d.tools.Lookup(name); ok {
			return t, ""
		}
	}
	if slices.Contains(d.session.Capsule.Capabilities.ShellAllow(), name) {
		if d.shell == nil {
			return nil, errNoShell
		}
		return shellTool{runner: d.shell, binary: name}, ""
	}
	if staged != nil && staged.Kind == stage.KindSkill {
		return &tools.SkillTool{Name: name, Text: staged.SkillText}, ""
	}
	if !allowed {
		return nil, tools.ErrNotDeclared(name).Error()
	}
	if t, ok := d.tools.Lookup(name); ok {
		return t, ""
	}
	return nil, tools.ErrNotAvailable(name).Error()
}
