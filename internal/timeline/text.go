package timeline

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteText writes the session's transcript for a terminal: each task,
// and in each turn what the model was sent and answered and what every
// tool, hook and compaction was given and returned. The lines that could
// not be read are the caller's to report.
func WriteText(w io.Writer, s *Session) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("Session %s", orNone(s.ID))
	if s.Capsule != "" {
		p(" · capsule %s", s.Capsule)
	}
	if !s.Start.IsZero() {
		p(" · started %s · %s", s.Start.UTC().Format("2006-01-02 15:04:05Z"), Duration(s.End.Sub(s.Start)))
	}
	p("\n")
	for _, st := range s.Loose {
		p("\n")
		writeStep(bw, st)
	}
	for _, t := range s.Tasks {
		start, end := t.Span()
		in, out := t.Tokens()
		p("\nTask %d%s · %s · %s · %s · tokens %d in, %d out\n", t.N, taskIDs(t), taskStatus(t), plural(t.TurnCount(), "turn", "turns"),
			Duration(end.Sub(start)), in, out)
		if t.Input.S != "" {
			p("  task:\n")
			block(bw, "    ", t.Input)
		}
		for _, tn := range t.ByTurn {
			p("\n── turn %d ──\n", tn.N+1)
			for _, st := range tn.Steps {
				writeStep(bw, st)
			}
		}
		if t.Status != "" {
			p("\n%s:\n", map[bool]string{true: "answer", false: "outcome"}[t.Status == "ok"])
			block(bw, "  ", t.Answer)
		}
	}
	return bw.Flush()
}

func writeStep(w *bufio.Writer, st *Step) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("%s\n", stepHeading(st))
	switch st.Kind {
	case "model":
		switch {
		case st.Sent != nil && st.FirstMessage > 0:
			// What extends the previous request is that request's answer
			// and tool results, shown in full above: a line each.
			p("  sent %s:\n", sentCount(st))
			for _, m := range st.Sent {
				p("    %s\n", messageLine(m))
			}
		case st.Sent != nil:
			p("  sent %s:\n", sentCount(st))
			for _, m := range st.Sent {
				writeMessage(w, m)
			}
		case st.In.S != "":
			p("  sent:\n")
			block(w, "    ", st.In)
		}
		switch {
		case st.Answer != nil:
			p("  answered:\n")
			writeBlocks(w, "    ", st.Answer.Blocks)
			if st.Answer.Error != "" {
				p("    error: %s\n", st.Answer.Error)
			}
		case st.Out.S != "":
			p("  answered:\n")
			block(w, "    ", st.Out)
		case st.Streamed != "":
			p("  streamed before the call ended:\n")
			block(w, "    ", Text{S: st.Streamed})
		}
	default:
		if st.In.S != "" {
			p("  input:\n")
			block(w, "    ", st.In)
		}
		if st.Out.S != "" {
			p("  output:\n")
			block(w, "    ", st.Out)
		}
	}
	if st.Error.S != "" {
		p("  error:\n")
		block(w, "    ", st.Error)
	}
}

// stepHeading is a step's one line: what it was, how it ended, how long
// it took.
func stepHeading(st *Step) string {
	var b strings.Builder
	switch st.Kind {
	case "model":
		fmt.Fprintf(&b, "model %s", orNone(st.Name))
	case "tool":
		fmt.Fprintf(&b, "tool %s (%s)", orNone(st.Name), orNone(st.ToolKind))
	case "hook":
		fmt.Fprintf(&b, "hook %s", orNone(st.Name))
		if st.HookEvent != "" {
			fmt.Fprintf(&b, " on %s", st.HookEvent)
		}
	case "compaction":
		b.WriteString("compaction")
	}
	for _, part := range stepFacts(st) {
		b.WriteString(" · ")
		b.WriteString(part)
	}
	return b.String()
}

// stepFacts are how a step ended, in short phrases.
func stepFacts(st *Step) []string {
	if !st.Ended {
		return []string{"did not end"}
	}
	var out []string
	if st.Status != "" {
		out = append(out, st.Status)
	}
	if st.Decision != "" {
		out = append(out, st.Decision)
	}
	if st.ExitCode != nil {
		out = append(out, fmt.Sprintf("exit %d", *st.ExitCode))
	}
	if st.Signal != "" {
		out = append(out, "signal "+st.Signal)
	}
	if st.Cancelled {
		out = append(out, "cancelled")
	}
	out = append(out, Duration(st.Duration))
	if st.Kind == "model" && (st.InputTokens != 0 || st.OutputTokens != 0) {
		est := ""
		if !st.UsageReported {
			est = " (estimated)"
		}
		out = append(out, fmt.Sprintf("%d in, %d out tokens%s", st.InputTokens, st.OutputTokens, est))
	}
	return out
}

func sentCount(st *Step) string {
	n := len(st.Sent)
	if st.FirstMessage == 0 {
		return plural(n, "message", "messages")
	}
	return fmt.Sprintf("%s (of %d in the request; the others are above)", plural(n, "new message", "new messages"), st.Messages)
}

func writeMessage(w *bufio.Writer, m Message) {
	fmt.Fprintf(w, "    %s:\n", who(m))
	writeBlocks(w, "      ", m.Blocks)
}

// who is whose a message is.
func who(m Message) string {
	s := orNone(m.Role)
	if m.ToolCallID != "" {
		s += " (result of " + m.ToolCallID
		if m.IsError {
			s += ", an error"
		}
		s += ")"
	}
	return s
}

// lineWidth is how much of a message's first line messageLine keeps.
const lineWidth = 80

// messageLine is a message in one line: whose, the start of its text,
// how much more there is, the tools it calls.
func messageLine(m Message) string {
	var text string
	var lines int
	var calls []string
	for _, b := range m.Blocks {
		switch {
		case b.Kind == "tool_call":
			calls = append(calls, orNone(b.Name))
		case b.Kind == "text" && text == "":
			text = strings.TrimSpace(b.Text)
			lines = strings.Count(text, "\n") + 1
		}
	}
	line := who(m) + ":"
	if text != "" {
		first, _, _ := strings.Cut(text, "\n")
		if r := []rune(first); len(r) > lineWidth {
			first = string(r[:lineWidth]) + "…"
		}
		line += " " + first
		if lines > 1 {
			line += fmt.Sprintf(" (+%d lines)", lines-1)
		}
	}
	if len(calls) > 0 {
		line += " → calls " + strings.Join(calls, ", ")
	}
	return line
}

func writeBlocks(w *bufio.Writer, indent string, blocks []Block) {
	for _, b := range blocks {
		switch b.Kind {
		case "text":
			block(w, indent, Text{S: b.Text})
		case "thinking":
			fmt.Fprintf(w, "%s(thinking)\n", indent)
			block(w, indent+"  ", Text{S: b.Text})
		case "tool_call":
			fmt.Fprintf(w, "%s→ calls %s %s\n", indent, orNone(b.Name), b.Input)
		default:
			fmt.Fprintf(w, "%s(%s block)\n", indent, b.Kind)
			block(w, indent+"  ", Text{S: b.Text})
		}
	}
}

// block writes a text indented, and says when the transcript cut it.
func block(w *bufio.Writer, indent string, t Text) {
	for line := range strings.SplitSeq(strings.TrimSuffix(t.S, "\n"), "\n") {
		fmt.Fprintf(w, "%s%s\n", indent, line)
	}
	if t.Truncated {
		fmt.Fprintf(w, "%s[cut: %s]\n", indent, cutNote(t))
	}
}

func cutNote(t Text) string {
	return fmt.Sprintf("the transcript keeps the first %d of %d bytes", len(t.S), t.Bytes)
}

func taskIDs(t *Task) string {
	var parts []string
	if t.ID != "" {
		parts = append(parts, t.ID)
	}
	if t.Source != "" {
		parts = append(parts, "from "+t.Source)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func taskStatus(t *Task) string {
	if t.Status == "" {
		return "did not end"
	}
	return t.Status
}

// Duration is d for a reader: 0.4 ms, 12 ms, 1.2 s, 2m03s.
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return "0 ms"
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
