package eval

import (
	"reflect"
	"testing"

	"github.com/mur-go/mur/internal/base/termtext"
)

var fuzzSeeds = []string{
	"",
	`{"record_type":"event_score","ts":1000,"turn":2,"event_type":"session_end","scorer":"turn_limit","result":"pass","score":1.0,"reason":"turns=2 max=5"}`,
	`{"record_type":"dataset_run","ts":1002,"dataset_id":"test-ds","case_id":"case_001","overall":"pass","scores":{"turn_limit":1.0,"success_check":1.0}}`,
	`{"record_type":"dataset_run","ts":3000,"dataset_id":null,"case_id":null,"overall":"no_scores","scores":{}}` + "\n\n",
	"{\"record_type\":\"event_score\",\"ts\":1,\"turn\":1,\"event_type\":\"\\u001b[2J\",\"scorer\":\"s\",\"result\":\"fail\",\"score\":-0.0}\r\n",
	"this is not valid json\n",
	`{"record_type":"unknown_type","ts":1000}`,
	`{"case_id":"c","task_path":"t.md","expected":null}`,
}

// FuzzParseRecords: any bytes decode or fail with an error, and what
// decodes, written back in Murmur's form, decodes to the same records.
func FuzzParseRecords(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseRecords("fuzz", data)
		if err != nil {
			return
		}
		again, err := ParseRecords("again", Encode(got.Events, got.Run))
		if err != nil {
			t.Fatalf("re-encoded records do not decode: %v", err)
		}
		if len(got.Events) == 0 {
			got.Events = nil
		}
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("round trip changed the records:\n%+v\n%+v", got, again)
		}
		_ = Printable(got.Overall())
	})
}

// FuzzParseDataset: any bytes give cases or an error, and every case has
// its fields and a line.
func FuzzParseDataset(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := ParseDataset("fuzz", data)
		if err != nil {
			return
		}
		for _, c := range cases {
			if c.Line < 1 {
				t.Fatalf("case %+v has no line", c)
			}
		}
	})
}

// FuzzPrintable: the result has no control character and no byte that
// is not UTF-8.
func FuzzPrintable(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		if !termtext.Safe(p, true) {
			t.Fatalf("Printable(%q) = %q still needs escaping", s, p)
		}
	})
}
