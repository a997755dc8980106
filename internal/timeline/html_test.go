package timeline

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mur-go/mur/internal/agent/transcript"
)

// hostile is what a guest or a model may put in any text of the
// transcript to make the page run a script, load something, or break
// out of an attribute or a style.
var hostile = []string{
	`</script><img src=x onerror=alert(1)>`,
	`"><script>alert(2)</script>`,
	`'><iframe src="http://127.0.0.1:1/frame"></iframe>`,
	`<link rel=stylesheet href=http://127.0.0.1:1/css>`,
	`</style><style>body{background:url(http://127.0.0.1:1/bg)}</style>`,
	`</pre></details></div><a href="javascript:alert(3)">click</a>`,
	`<svg onload=alert(4)>`,
	`<base href="http://127.0.0.1:1/">`,
	`<meta http-equiv="refresh" content="0;url=http://127.0.0.1:1/">`,
}

// hostileSession is session() with a hostile string in every text a
// transcript line can give.
func hostileSession() transcript.File {
	f := session()
	h := strings.Join(hostile, " ")
	for i := range f.Entries {
		e := &f.Entries[i]
		e.SessionID, e.Capsule, e.ContextID, e.Source, e.Name = h, h, h, h, h
		if e.TaskID != "" {
			e.TaskID = h
		}
		e.ToolKind, e.HookEvent, e.Status, e.Decision, e.StopReason, e.Error, e.Signal = h, h, h, h, h, h, h
		switch e.Kind {
		case "model_start":
			e.Text = `[{"role":` + jsonString(h) + `,"tool_call_id":` + jsonString(h) + `,"content":[{"type":"text","text":` + jsonString(h) +
				`},{"type":` + jsonString(h) + `,"x":1},{"type":"tool_call","name":` + jsonString(h) + `,"input":{"k":` + jsonString(h) + `}}]}]`
		case "model_end":
			e.Text = `{"stop_reason":` + jsonString(h) + `,"error":` + jsonString(h) + `,"content":[{"type":"thinking","text":` + jsonString(h) + `}]}`
		default:
			e.Text = h
		}
	}
	f.Problems = append(f.Problems, h)
	return f
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// The elements and attributes the page is made of: nothing that runs,
// loads or navigates.
var (
	pageElements = []string{"html", "head", "meta", "title", "style", "body", "header", "main", "section", "h1", "h2", "h3", "h4",
		"p", "b", "code", "pre", "ul", "li", "span", "div", "table", "thead", "tbody", "tr", "th", "td", "details", "summary"}
	pageAttributes = []string{"charset", "http-equiv", "content", "name", "lang", "class", "id", "style", "title", "open", "colspan"}
	styleAttr      = regexp.MustCompile(`^(left:[0-9.]+%;?)?(width:[0-9.]+%)?$`)
)

const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

// Every text of a hostile transcript is shown as text: the page has no
// element or attribute beyond its own, one style sheet (its own), the
// Content Security Policy that forbids every load first in its head, and
// each hostile string among its texts.
func TestWriteHTMLEscapes(t *testing.T) {
	var b strings.Builder
	if err := WriteHTML(&b, Build(hostileSession())); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, doc)
	texts := textOf(doc)
	for _, h := range hostile {
		if !strings.Contains(texts, h) {
			t.Errorf("the page does not show %q as text", h)
		}
	}
}

// checkPage fails t for anything in doc beyond what the page is made of.
func checkPage(t *testing.T, doc *html.Node) {
	t.Helper()
	styles, metas := 0, 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if !slices.Contains(pageElements, n.Data) {
			t.Errorf("the page has a <%s> element", n.Data)
		}
		for _, a := range n.Attr {
			if !slices.Contains(pageAttributes, a.Key) {
				t.Errorf("<%s> has the attribute %s=%q", n.Data, a.Key, a.Val)
			}
			if a.Key == "style" && !styleAttr.MatchString(a.Val) {
				t.Errorf("<%s> has the style %q", n.Data, a.Val)
			}
		}
		switch n.Data {
		case "style":
			styles++
		case "meta":
			if metas++; metas == 1 && (attr(n, "charset") != "utf-8") {
				t.Errorf("the first meta is not the charset")
			}
			if metas == 2 && (attr(n, "http-equiv") != "Content-Security-Policy" || attr(n, "content") != csp) {
				t.Errorf("the second meta is not the policy: %v", n.Attr)
			}
		}
	}
	if styles != 1 {
		t.Errorf("%d style elements, want the page's own", styles)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// textOf is every text node of the body, joined.
func textOf(doc *html.Node) string {
	var b strings.Builder
	for n := range doc.Descendants() {
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.Data != "style" {
			b.WriteString(n.Data)
		}
	}
	return b.String()
}

// The page of a plain session draws one bar per step, in order, placed
// on the task's time axis, and the tokens of each turn.
func TestWriteHTMLDrawsTheTimeline(t *testing.T) {
	var b strings.Builder
	if err := WriteHTML(&b, Build(session())); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, doc)
	var bars []string
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && strings.HasPrefix(attr(n, "class"), "bar ") {
			bars = append(bars, attr(n, "class")+" "+attr(n, "style"))
		}
	}
	// The task spans 36 ms: model 1–11, wc 12–20, sh 13–30 (failed),
	// guard 31–32, compaction 33–35, and the model call from 36 that
	// never ended, drawn to the end at its least width.
	want := []string{
		"bar model left:2.778%;width:27.778%",
		"bar tool left:33.333%;width:22.222%",
		"bar shell failed left:36.111%;width:47.222%",
		"bar hook failed left:86.111%;width:2.778%",
		"bar compaction left:91.667%;width:5.556%",
		"bar model left:99.400%;width:0.600%",
	}
	if !slices.Equal(bars, want) {
		t.Errorf("bars\n got  %q\n want %q", bars, want)
	}
	texts := textOf(doc)
	for _, w := range []string{"turn 1 · model m", "turn 1 · tool wc (wasm)", "turn 1 · shell sh", "turn 1 · hook guard (on-tool-call)",
		"turn 2 · compaction", "did not end", "Cut: the transcript keeps the first 10 of 99999 bytes.", "I'll count", "→ calls wc",
		"Streamed before the call ended", "So far", "Outside any task", "unknown kind"} {
		if !strings.Contains(texts, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}

// jsonLine is e as the writer encodes it, with its newline.
func jsonLine(e transcript.Entry) ([]byte, error) {
	b, err := json.Marshal(e)
	return append(b, '\n'), err
}
