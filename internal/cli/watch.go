package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/remote/a2a"
)

const watchLong = `Follow a served capsule's stream: each turn's status, tool calls and
their results, streamed text and the final answer, as they happen, for
every task. The stream replays what the capsule still holds, then follows
live; a final status does not end it: mur exits when the capsule closes.

` + targetHelp + `

Environment:
  MURMUR_A2A_TOKEN  bearer token to send when --token is not given`

func newWatchCommand(a *app) *cobra.Command {
	var token, from string
	cmd := &cobra.Command{
		Use:   "watch TARGET",
		Short: "Follow a served capsule's turns, tool calls and answers",
		Long:  watchLong,
		Args:  exactArgs("TARGET"),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := resolveTarget(cmd, args[0])
			if err != nil {
				return err
			}
			r := &watchRenderer{out: a.stdout, errw: a.stderr, colour: isTerminal(a.stdout), mode: "stateless",
				turns: map[string]int{}, contexts: map[string]string{}}
			return a2a.Watch(cmd.Context(), nil, t.url, t.token(token), from, r.render)
		},
	}
	tokenFlag(cmd, &token)
	cmd.Flags().StringVar(&from, "from", "0", "replay the events after this event id")
	return cmd
}

// watchRenderer prints stream/watch events readably (a2a-cli.md §6.4).
type watchRenderer struct {
	out, errw io.Writer
	colour    bool
	mode      string
	turns     map[string]int    // per context, in threaded mode
	contexts  map[string]string // task → context
	midText   bool              // streamed text without its newline yet
}

type watchPayload struct {
	ID        string `json:"id"`
	ContextID string `json:"context_id"`
	Status    struct {
		State    string  `json:"state"`
		Message  string  `json:"message"`
		Response *string `json:"response"`
	} `json:"status"`
	Final    bool `json:"final"`
	Artifact struct {
		ToolName string `json:"tool_name"`
		Content  string `json:"content"`
	} `json:"artifact"`
	Text             string `json:"text"`
	ConversationMode string `json:"conversation_mode"`
	FirstAvailableID uint64 `json:"first_available_id"`
}

func (r *watchRenderer) render(ev a2a.WatchEvent) {
	var p watchPayload
	_ = json.Unmarshal(ev.Data, &p)
	switch ev.Event {
	case "connection-ack":
		if p.ConversationMode != "" {
			r.mode = p.ConversationMode
		}
	case "status":
		r.endText()
		r.status(p)
	case "artifact":
		r.endText()
		lines := strings.Split(strings.TrimRight(p.Artifact.Content, "\n"), "\n")
		head := r.paint("36", "[artifact]") + " tool: " + p.Artifact.ToolName
		if p.Artifact.Content == "" {
			fmt.Fprintln(r.out, head)
			return
		}
		fmt.Fprintf(r.out, "%s | %s\n", head, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(r.out, "  %s\n", l)
		}
	case "text":
		if p.Text != "" {
			fmt.Fprint(r.out, p.Text)
			r.midText = true
		}
	case "gap":
		fmt.Fprintf(r.errw, "[murmur] warning: events were dropped before id %d; the stream resumes there\n", p.FirstAvailableID)
	case "capsule-closed":
		r.endText()
		fmt.Fprintln(r.errw, "[murmur] capsule closed")
	}
}

func (r *watchRenderer) status(p watchPayload) {
	if p.ContextID != "" {
		r.contexts[p.ID] = p.ContextID
	}
	label := p.Status.State
	if r.mode == "threaded" {
		ctx := r.contexts[p.ID]
		short := strings.TrimPrefix(ctx, "ctx_")
		if len(short) > 8 {
			short = short[:8]
		}
		label = fmt.Sprintf("ctx_%s... / turn %d / %s", short, r.turns[ctx]+1, p.Status.State)
		if p.Final {
			r.turns[ctx]++
		}
	}
	tag := r.paint(stateColour(p.Status.State), "["+label+"]")
	if !p.Final {
		fmt.Fprintf(r.out, "%s  %s\n", tag, p.Status.Message)
		return
	}
	fmt.Fprintln(r.out, tag)
	if p.Status.State == "completed" && p.Status.Response != nil {
		for _, l := range wrap(*p.Status.Response, 78) {
			fmt.Fprintf(r.out, "  %s\n", l)
		}
		fmt.Fprintln(r.out)
	} else if p.Status.Message != "" && p.Status.Message != "session ended" {
		fmt.Fprintf(r.out, "  %s\n", p.Status.Message)
	}
}

func (r *watchRenderer) endText() {
	if r.midText {
		fmt.Fprintln(r.out)
		r.midText = false
	}
}

func (r *watchRenderer) paint(code, s string) string {
	if !r.colour {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func stateColour(state string) string {
	switch state {
	case "completed":
		return "32"
	case "failed", "rejected", "canceled":
		return "31"
	case "input-required":
		return "33"
	}
	return "34"
}

// wrap breaks text into lines of at most width columns at spaces,
// keeping its own line breaks.
func wrap(text string, width int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len(line)+1+len(w) > width {
				out = append(out, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return out
}
