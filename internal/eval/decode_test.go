package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

// Lines read as Murmur's serde types read them: lenient where serde is
// (blank lines, surrounding space, CRLF, unknown fields, absent or null
// optional fields, integers for a float), strict where it is (exact
// keys, no repeats, integers for ts and turn, the record types it
// knows).
func TestParseRecords(t *testing.T) {
	const ev = `"record_type":"event_score","ts":1,"turn":2,"event_type":"session_end","scorer":"s","result":"pass"`
	for _, tc := range []struct {
		name, in string
		// want is the error's text ("" for none); events and run what
		// decodes.
		want   string
		events int
		run    bool
	}{
		{"empty", "", "", 0, false},
		{"blank lines and spaces", "\n  \n\t{" + ev + "}  \r\n\n", "", 1, false},
		{"unknown fields ignored", `{` + ev + `,"extra":{"a":[1]}}`, "", 1, false},
		{"score absent, reason null", `{` + ev + `,"reason":null}`, "", 1, false},
		{"score an integer", `{` + ev + `,"score":1}`, "", 1, false},
		{"last dataset_run kept", `{"record_type":"dataset_run","ts":1,"overall":"pass","scores":{}}` + "\n" +
			`{"record_type":"dataset_run","ts":2,"overall":"fail","scores":{"a":0}}`, "", 0, true},
		{"not JSON", "{" + ev + "}\nthis is not valid json", "f:2: not valid JSON", 0, false},
		{"an array", "[1]", "f:1: expected a JSON object, found an array", 0, false},
		{"trailing text", "{" + ev + "} x", "f:1: trailing characters", 0, false},
		{"two objects", "{" + ev + "}{" + ev + "}", "f:1: trailing characters", 0, false},
		{"cut short", `{"record_type":"event_score"`, "f:1: the JSON object ends early", 0, false},
		{"no record_type", `{"ts":1}`, `f:1: missing field "record_type"`, 0, false},
		{"unknown record_type", `{"record_type":"unknown_type","ts":1000}`, `f:1: unknown record_type "unknown_type"`, 0, false},
		{"record_type in another case", `{"Record_Type":"event_score"}`, `missing field "record_type"`, 0, false},
		{"repeated field", `{` + ev + `,"turn":3}`, `f:1: duplicate field "turn"`, 0, false},
		{"missing turn", `{"record_type":"event_score","ts":1,"event_type":"e","scorer":"s","result":"pass"}`, `missing field "turn"`, 0, false},
		{"ts a float", `{"record_type":"event_score","ts":1.0,"turn":2,"event_type":"e","scorer":"s","result":"pass"}`,
			`field "ts": expected an unsigned 64-bit integer, found the number 1.0`, 0, false},
		{"turn negative", `{"record_type":"event_score","ts":1,"turn":-2,"event_type":"e","scorer":"s","result":"pass"}`,
			`field "turn": expected an unsigned 32-bit integer`, 0, false},
		{"turn over 32 bits", `{"record_type":"event_score","ts":1,"turn":4294967296,"event_type":"e","scorer":"s","result":"pass"}`,
			`field "turn": expected an unsigned 32-bit integer`, 0, false},
		{"result null", `{"record_type":"event_score","ts":1,"turn":2,"event_type":"e","scorer":"s","result":null}`,
			`field "result": expected a string, found null`, 0, false},
		{"score a string", `{` + ev + `,"score":"1"}`, `field "score": expected a number, found a string`, 0, false},
		{"score out of range", `{` + ev + `,"score":1e999}`, `field "score": the number 1e999 is out of range`, 0, false},
		{"scores missing", `{"record_type":"dataset_run","ts":1,"overall":"pass"}`, `missing field "scores"`, 0, false},
		{"scores a list", `{"record_type":"dataset_run","ts":1,"overall":"pass","scores":[]}`, `field "scores": expected an object, found an array`, 0, false},
		{"a score null", `{"record_type":"dataset_run","ts":1,"overall":"pass","scores":{"a":null}}`, `field "scores.a": expected a number, found null`, 0, false},
		{"not UTF-8", "{" + ev + "}\n\xff", "failed to read f: line 2 is not valid UTF-8", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseRecords("f", []byte(tc.in))
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				var d *diag.Error
				if !errors.As(err, &d) || (d.Code != CodeParse && d.Code != CodeIO) {
					t.Errorf("error %v is not E-EVAL-001", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Events) != tc.events || (f.Run != nil) != tc.run {
				t.Errorf("events %+v, run %+v", f.Events, f.Run)
			}
		})
	}
}

// An event's optional fields decode to what they say, and the last
// dataset_run wins.
func TestParseRecordsValues(t *testing.T) {
	f, err := ParseRecords("f", []byte(`{"record_type":"event_score","ts":18446744073709551615,"turn":4294967295,"event_type":"session_end","scorer":"s","result":"pass","score":0.25,"reason":"why"}
{"record_type":"dataset_run","ts":1,"dataset_id":"d","case_id":null,"overall":"fail","scores":{"a":1,"a":0.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := f.Events[0]
	if e.TS != 1<<64-1 || e.Turn != 1<<32-1 || *e.Score != 0.25 || *e.Reason != "why" {
		t.Errorf("%+v", e)
	}
	if r := f.Run; *r.DatasetID != "d" || r.CaseID != nil || r.Overall != Fail || r.Scores["a"] != 0.5 {
		t.Errorf("%+v", r)
	}
}
