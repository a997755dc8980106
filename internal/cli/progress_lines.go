package cli

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/agent/observe"
)

// The lines the progress prints for the steps of a run. Every piece of text
// in them that the model, a tool, a task or a client chose goes through
// brief.

// taskLine starts a task: its id (a served capsule runs many), where it
// came from, and its text when the loop has it.
func taskLine(e observe.Event) string {
	s := "task"
	if e.TaskID != "" {
		s += " " + brief(e.TaskID, 64)
	}
	if e.Source != "" {
		s += " (" + brief(e.Source, 24) + ")"
	}
	if e.Input != "" {
		s += ": " + brief(e.Input, briefInput)
	}
	return s
}

// modelEnd ends a model call: the text it said, if it did not stream
// it, then its decision, duration and tokens, or its failure.
func (p *runProgress) modelEnd(t *taskView, e observe.Event) {
	t.doing, t.tail = "", ""
	if e.Status == "error" {
		s := "  model error · " + span(e.Duration)
		if m := brief(e.Err, briefError); m != "" {
			s += " · " + m
		}
		p.line(s)
		return
	}
	in, estimated := t.callIn, !e.UsageReported
	if e.UsageReported {
		in = e.InputTokens
	}
	t.in, t.out, t.estimated = t.in+in, t.out+e.OutputTokens, t.estimated || estimated
	if !t.streamed {
		if said := brief(answerText(e.Output), briefAnswer); said != "" {
			p.line(streamPrefix + said)
		}
	}
	decision := e.Decision
	if decision == "" {
		decision = "answered"
	}
	p.line(fmt.Sprintf("  %s · %s · %s", brief(decision, 24), span(e.Duration), tokens(in, e.OutputTokens, estimated)))
}

// toolLine is a tool call once it answered: its name, its input cut
// short, ok or error (cancelled when a cancellation cut it short), how
// long it took, and for a failure how: exit status, signal, what the
// model was told.
func toolLine(e observe.Event, input string) string {
	var b strings.Builder
	b.WriteString("  tool " + brief(e.Name, 40))
	if input != "" {
		b.WriteString(" " + input)
	}
	status := e.Status
	if e.Cancelled {
		status = "cancelled"
	}
	fmt.Fprintf(&b, " · %s · %s", brief(status, 16), span(e.Duration))
	if e.ExitCode != nil && *e.ExitCode != 0 {
		fmt.Fprintf(&b, " · exit %d", *e.ExitCode)
	}
	if e.Signal != "" {
		b.WriteString(" · signal " + brief(e.Signal, 16))
	}
	if status != "ok" {
		if out := brief(e.Output, briefError); out != "" {
			b.WriteString(" · " + out)
		}
	}
	return b.String()
}

// taskEndLine ends a task: how, in how many turns, tokens (estimated
// when a model call's were) and time, and for one that did not end ok,
// why.
func taskEndLine(e observe.Event, estimated bool) string {
	s := "task"
	if e.TaskID != "" {
		s += " " + brief(e.TaskID, 64)
	}
	turns := "turns"
	if e.Turns == 1 {
		turns = "turn"
	}
	s += fmt.Sprintf(" %s · %d %s · %s · %s", brief(e.Status, 32), e.Turns, turns, tokens(e.InputTokens, e.OutputTokens, estimated), span(e.Duration))
	if e.Status != "ok" {
		if why := brief(e.Output, briefError); why != "" {
			s += " · " + why
		}
	}
	return s
}
