package eval

import (
	"math"
	"testing"
)

// Floats are written as serde_json writes an f64.
func TestFormatFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {-2, "-2.0"}, {0.5, "0.5"}, {0.25, "0.25"},
		{1.0 / 3, "0.3333333333333333"}, {123.456, "123.456"}, {1e15, "1000000000000000.0"},
		{1e16, "1e16"}, {1.5e16, "1.5e16"}, {1e-5, "0.00001"}, {1.5e-5, "0.000015"}, {1e-7, "1e-7"},
		{1.25e-7, "1.25e-7"}, {math.MaxFloat64, "1.7976931348623157e308"}, {5e-324, "5e-324"},
		{math.NaN(), "null"}, {math.Inf(1), "null"},
	} {
		if got := FormatFloat(tc.f); got != tc.want {
			t.Errorf("FormatFloat(%v) = %s, want %s", tc.f, got, tc.want)
		}
	}
}

// Records are written in Murmur's byte form: its field order, floats
// with a fraction, scores sorted, no HTML escaping.
func TestEncode(t *testing.T) {
	one, reason, ds, id := 1.0, "a<b & c", "smoke", "c1"
	got := string(Encode([]EventScore{{TS: 7, Turn: 2, EventType: "session_end", Scorer: "s", Result: Pass, Score: &one, Reason: &reason}},
		&DatasetRun{TS: 7, DatasetID: &ds, CaseID: &id, Overall: Pass, Scores: map[string]float64{"z": 1, "a": 0}}))
	want := `{"record_type":"event_score","ts":7,"turn":2,"event_type":"session_end","scorer":"s","result":"pass","score":1.0,"reason":"a<b & c"}
{"record_type":"dataset_run","ts":7,"dataset_id":"smoke","case_id":"c1","overall":"pass","scores":{"a":0.0,"z":1.0}}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := string(Encode(nil, &DatasetRun{Overall: NoScores, Scores: map[string]float64{}})); got != `{"record_type":"dataset_run","ts":0,"dataset_id":null,"case_id":null,"overall":"no_scores","scores":{}}`+"\n" {
		t.Errorf("got %s", got)
	}
}

// show --json is serde_json's pretty form of Murmur's summary.
func TestSummarizeJSON(t *testing.T) {
	f, err := ParseRecords("f", []byte(`{"record_type":"event_score","ts":1,"turn":2,"event_type":"session_end","scorer":"t","result":"pass","score":1.0}
{"record_type":"event_score","ts":1,"turn":2,"event_type":"session_end","scorer":"t","result":"fail","score":0.0}
{"record_type":"dataset_run","ts":3,"dataset_id":null,"case_id":"c","overall":"fail","scores":{"t":0.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := MarshalIndent(Summarize(f))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "dataset_run": {
    "case_id": "c",
    "dataset_id": null,
    "overall": "fail",
    "scores": {
      "t": 0.5
    },
    "ts": 3
  },
  "overall": "fail",
  "scorers": {
    "t": {
      "fail": 1,
      "pass": 1,
      "pass_rate": 0.5,
      "total": 2
    }
  }
}
`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	b, _ = MarshalIndent(Summarize(&File{}))
	if string(b) != "{\n  \"dataset_run\": null,\n  \"overall\": \"no_scores\",\n  \"scorers\": {}\n}\n" {
		t.Errorf("empty file:\n%s", b)
	}
}
