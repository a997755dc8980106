package timeline

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"time"
)

//go:embed page.html.tmpl
var pageSource string

//go:embed page.css
var pageCSS string

// page is parsed once per call: a template is state, and the package
// keeps none.
func page() (*template.Template, error) {
	return template.New("page").Funcs(template.FuncMap{
		"cut":         cutNote,
		"heading":     stepHeading,
		"sentCount":   sentCount,
		"plus1":       func(n uint32) uint32 { return n + 1 },
		"statusClass": statusClass,
		"roleClass":   roleClass,
	}).Parse(pageSource)
}

// WriteHTML writes the session as one self-contained HTML page: its
// style inline, no script, nothing loaded from anywhere (its Content
// Security Policy forbids every load), every text from the transcript
// escaped by html/template.
func WriteHTML(w io.Writer, s *Session) error {
	t, err := page()
	if err != nil {
		return err
	}
	return t.Execute(w, newView(s))
}

// view is what the template draws.
type view struct {
	S     *Session
	CSS   template.CSS
	Title string
	// Started and Took describe the whole session.
	Started, Took string
	Tasks         []taskView
	Loose         []*Step
	Legend        []string
}

type taskView struct {
	*Task
	Took, Status string
	In, Out      uint64
	Rows         []row
	Ticks        []tick
	Tokens       []tokenRow
}

// row is one bar of a task's timeline.
type row struct {
	Label, Class, Dur, Title string
	// Left and Width place the bar, in percent of the task's span.
	Left, Width string
	Failed      bool
}

type tick struct{ Left, Label string }

// tokenRow is one turn's tokens, with bar widths in percent of the
// task's largest count.
type tokenRow struct {
	Turn                uint32
	In, Out             uint64
	InWidth, OutWidth   string
	Reported, HasTokens bool
}

func newView(s *Session) view {
	v := view{S: s, CSS: template.CSS(pageCSS), Title: "mur session " + orNone(s.ID), Loose: s.Loose,
		Legend: []string{"model", "tool", "shell", "hook", "compaction"}}
	if s.Capsule != "" {
		v.Title += " · " + s.Capsule
	}
	if !s.Start.IsZero() {
		v.Started, v.Took = s.Start.UTC().Format("2006-01-02 15:04:05 UTC"), Duration(s.End.Sub(s.Start))
	}
	for _, t := range s.Tasks {
		v.Tasks = append(v.Tasks, newTaskView(t))
	}
	return v
}

func newTaskView(t *Task) taskView {
	start, end := t.Span()
	span := end.Sub(start)
	tv := taskView{Task: t, Took: Duration(span), Status: taskStatus(t)}
	tv.In, tv.Out = t.Tokens()
	for _, st := range t.Steps {
		left, width := place(st, start, end)
		r := row{Label: rowLabel(st), Class: st.Class, Left: pct(left), Width: pct(width), Dur: Duration(st.Duration),
			Failed: st.Ended && st.Status == "error", Title: stepHeading(st)}
		if !st.Ended {
			r.Dur = "did not end"
		}
		tv.Rows = append(tv.Rows, r)
	}
	for i := range 5 {
		tv.Ticks = append(tv.Ticks, tick{Left: pct(float64(i) * 25), Label: Duration(span * time.Duration(i) / 4)})
	}
	var most uint64
	for _, tn := range t.ByTurn {
		most = max(most, tn.InputTokens, tn.OutputTokens)
	}
	for _, tn := range t.ByTurn {
		r := tokenRow{Turn: tn.N, In: tn.InputTokens, Out: tn.OutputTokens, Reported: tn.Reported, HasTokens: tn.InputTokens+tn.OutputTokens > 0}
		if most > 0 {
			r.InWidth, r.OutWidth = pct(float64(tn.InputTokens)*100/float64(most)), pct(float64(tn.OutputTokens)*100/float64(most))
		}
		tv.Tokens = append(tv.Tokens, r)
	}
	return tv
}

// minWidth keeps the shortest step visible, in percent of the span.
const minWidth = 0.6

// place is where st's bar lies in the span from start to end, in
// percent: a step that did not end runs to the end.
func place(st *Step, start, end time.Time) (left, width float64) {
	span := end.Sub(start)
	if span <= 0 {
		return 0, 100
	}
	left = float64(st.Start.Sub(start)) * 100 / float64(span)
	width = float64(st.Duration) * 100 / float64(span)
	if !st.Ended {
		width = 100 - left
	}
	left = min(max(left, 0), 100-minWidth)
	width = min(max(width, minWidth), 100-left)
	return left, width
}

func pct(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

// statusClass is the class a task's status is drawn with: one of a
// fixed few, whatever the transcript says.
func statusClass(status string) string {
	switch status {
	case "ok":
		return "ok"
	case "":
		return "open"
	}
	return "failed"
}

// roleClass is the class a message is drawn with.
func roleClass(role string) string {
	switch role {
	case "user", "assistant", "tool":
		return role
	}
	return "other"
}

func rowLabel(st *Step) string {
	turn := fmt.Sprintf("turn %d · ", st.Turn+1)
	switch st.Kind {
	case "model":
		return turn + "model " + orNone(st.Name)
	case "tool":
		if st.Class == "shell" {
			return turn + "shell " + orNone(st.Name)
		}
		return turn + "tool " + orNone(st.Name) + " (" + orNone(st.ToolKind) + ")"
	case "hook":
		label := "hook " + orNone(st.Name)
		if st.HookEvent != "" {
			label += " (" + st.HookEvent + ")"
		}
		return turn + label
	}
	return turn + "compaction"
}
