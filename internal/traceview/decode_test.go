package traceview

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

const (
	startLine = `{"event_type":"session_start","session_id":"ses_1","capsule_name":"c","capsule_version":"1","model":"m","max_turns":3}`
	endLine   = `{"event_type":"session_end","total_turns":1,"total_input_tokens":2,"total_output_tokens":3,"total_tool_calls":1,"total_shell_calls":0,"duration_ms":4,"exit_status":"ok"}`
)

// A known event missing a field the commands use, or holding one of the
// wrong type, is the line's error, as Murmur's reader has it; fields
// match by exact name.
func TestDecodeRefusesBadRecords(t *testing.T) {
	for _, c := range []struct{ name, line, want string }{
		{"not JSON", `THIS IS NOT JSON`, "t.jsonl:2: invalid character 'T'"},
		{"not an object", `[1,2]`, "t.jsonl:2: expected a JSON object, found array"},
		{"no event type", `{"turn":1}`, "t.jsonl:2: missing field `event_type`"},
		{"event type not a string", `{"event_type":7}`, "t.jsonl:2: invalid type for `event_type`: 7, expected a string"},
		{"missing required field", `{"event_type":"tool_call","tool_name":"x","status":"ok"}`, "t.jsonl:2: missing field `duration_ms`"},
		{"null required field", `{"event_type":"inference","turn":null,"decision":"end_turn"}`, "invalid type for `turn`: null, expected u32"},
		{"negative count", `{"event_type":"inference","turn":-1,"decision":"end_turn"}`, "invalid type for `turn`: -1, expected u32"},
		{"fraction", `{"event_type":"shell","exit_code":0,"duration_ms":1.5}`, "invalid type for `duration_ms`: 1.5, expected u64"},
		{"count too large for u32", `{"event_type":"inference","turn":4294967296,"decision":"end_turn"}`, "expected u32"},
		{"name in another case", `{"event_type":"tool_call","Tool_Name":"x","duration_ms":1,"status":"ok"}`, "missing field `tool_name`"},
		{"defaulted field null", `{"event_type":"tool_call","turn":null,"tool_name":"x","duration_ms":1,"status":"ok"}`, "invalid type for `turn`"},
		{"mur-go field of the wrong type", `{"event_type":"tool_call","tool_name":"x","duration_ms":1,"status":"ok","cancelled":"yes"}`, "invalid type for `cancelled`"},
		{"bad security warning", `{"event_type":"session_start","session_id":"s","capsule_name":"c","capsule_version":"1","model":"m","max_turns":3,"security_warnings":[{"code":"W"}]}`,
			"security_warnings: missing field `message`"},
		{"invalid UTF-8", "{\"event_type\":\"x\",\"a\":\"\xff\"}", "t.jsonl:2: the line is not valid UTF-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(startLine+"\n"+c.line+"\n"+endLine+"\n"), "t.jsonl")
			var d *diag.Error
			if !errors.As(err, &d) || d.Code != CodeTrace || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want E-TRC-001 containing %q", err, c.want)
			}
		})
	}
}

// What Murmur's reader lets through: blank lines, CRLF, a last line
// without its newline, unknown events and fields, an optional field
// that is null, optional fields absent.
func TestDecodeIsLenient(t *testing.T) {
	in := "\n  \r\n" + startLine + "\r\n" +
		`{"event_type":"a_future_event","anything":[1,{"x":null}]}` + "\n" +
		`{"event_type":"inference","turn":1,"decision":"tool_call","tool_name":null,"extra":true}` + "\n" +
		`{"event_type":"tool_call","tool_name":"t","duration_ms":5,"status":"ok","input":null,"state_effect":null}` + "\n" +
		endLine
	tr, err := Decode(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Events != 5 || len(tr.Inferences) != 1 || tr.Inferences[0].HasTool || len(tr.ToolCalls) != 1 ||
		tr.ToolCalls[0].Input != "" || tr.ToolCalls[0].Turn != 0 || tr.End == nil || tr.Start.SessionID != "ses_1" {
		t.Errorf("decoded %+v", tr)
	}
}

// A line past the limit is refused before it is held whole.
func TestDecodeRefusesLongLine(t *testing.T) {
	const max = 1 << 10
	ok := startLine + "\n" + `{"event_type":"x","pad":"` + strings.Repeat("a", max-30) + `"}` + "\n"
	if _, err := decode(strings.NewReader(ok), "t.jsonl", max); err != nil {
		t.Fatalf("a line under the limit: %v", err)
	}
	for _, long := range []string{
		startLine + "\n" + strings.Repeat("a", max+1) + "\n",
		startLine + "\n" + strings.Repeat("a", max+1),
		startLine + "\n" + strings.Repeat("a", 64*max),
	} {
		if _, err := decode(strings.NewReader(long), "t.jsonl", max); err == nil || !strings.Contains(err.Error(), "t.jsonl:2: line is longer than 1024 bytes") {
			t.Errorf("a line over the limit: %v", err)
		}
	}
}

// Input as Murmur prints it: serde_json's sorted keys, numbers as
// written, no HTML escaping, cut at 120 characters; the first string
// depth first by sorted keys; the path under the first path field name.
func TestReadInput(t *testing.T) {
	for _, c := range []struct {
		raw, inline, summary, path string
	}{
		{`{"z":1,"a":"<b>&"}`, `{"a":"<b>&","z":1}`, `"<b>&"`, ""},
		{`{"n":12345678901234567890,"f":1.50}`, `{"f":1.50,"n":12345678901234567890}`, "", ""},
		{`{"b":{"y":[false,"deep"]},"a":{"k":3}}`, `{"a":{"k":3},"b":{"y":[false,"deep"]}}`, `"deep"`, ""},
		{`{"FILE":"x","Path":"p","filename":"f"}`, `{"FILE":"x","Path":"p","filename":"f"}`, `"x"`, "p"},
		{`{"PATH":"upper","path":"lower"}`, `{"PATH":"upper","path":"lower"}`, `"upper"`, "upper"},
		{`{"path":7,"file":"f"}`, `{"file":"f","path":7}`, `"f"`, "f"},
		{`"text"`, `"text"`, `"text"`, ""},
		{`{"c":"a\u001b[31mred"}`, `{"c":"a\u001b[31mred"}`, `"a\x1b[31mred"`, ""},
		{`{"c":"` + strings.Repeat("é", 130) + `"}`, `{"c":"` + strings.Repeat("é", 114) + `…`, `"` + strings.Repeat("é", 60) + `…"`, ""},
	} {
		in, err := readInput([]byte(c.raw))
		if err != nil || in.inline != c.inline || in.summary != c.summary || in.path != c.path || in.hasPath != (c.path != "") {
			t.Errorf("%s: got %+v (%v), want inline %s summary %s path %q", c.raw, in, err, c.inline, c.summary, c.path)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain ✓ é":               "plain ✓ é",
		"\x1b]0;title\x07":        `\x1b]0;title\a`,
		"a\nb\tc\r":               `a\nb\tc\r`,
		"\u009b31m \x7f":          `\u009b31m \x7f`,
		"\u202eevil\u2066 \u200f": `\u202eevil\u2066 \u200f`,
		strings.Repeat("x", 1001): strings.Repeat("x", 1000) + "…",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}
