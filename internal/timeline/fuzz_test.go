package timeline

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mur-go/mur/internal/agent/transcript"
)

// FuzzPage: whatever a transcript holds, building the session and
// writing it as text and as a page neither fails nor panics, the text
// carries no escape character, and the page has nothing of its own
// making beyond the page's elements and attributes.
func FuzzPage(f *testing.F) {
	var seed bytes.Buffer
	for _, e := range hostileSession().Entries {
		b, _ := jsonLine(e)
		seed.Write(b)
	}
	f.Add(seed.Bytes())
	f.Add([]byte(`{"kind":"model_end","time":"2026-01-02T03:04:05Z","turn":0,"text":"{\"content\":[{\"type\":\"tool_call\",\"input\":\"\\u001b\"}]}"}` + "\n"))
	f.Add([]byte(`{"kind":"tool_end","time":"2026-01-02T03:04:05Z","task_id":"x","duration_ms":1e12}` + "\n" +
		`{"kind":"tool_start","time":"2000-01-02T03:04:05Z","task_id":"x","turn":4294967295}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := transcript.Read(bytes.NewReader(b), "f")
		if err != nil {
			t.Fatal(err)
		}
		s := Build(tr)
		var text, page strings.Builder
		if err := WriteText(&text, s); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(text.String(), "\x1b\x07\u202e") {
			t.Fatalf("the text carries a control character:\n%q", text.String())
		}
		if err := WriteHTML(&page, s); err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(strings.NewReader(page.String()))
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, doc)
	})
}
