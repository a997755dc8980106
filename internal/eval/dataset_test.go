package eval

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestParseDataset(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Case
		// err is the error's text, code its code.
		err  string
		code diag.Code
	}{
		{"cases", "\n{\"case_id\": \"a\", \"task_path\": \"a.md\"}\n\n  {\"task_path\": \"b.md\", \"case_id\": \"b\", \"expected\": null}\r\n",
			[]Case{{"a", "a.md", 2}, {"b", "b.md", 4}}, "", ""},
		{"empty", "\n \n", nil, "", ""},
		{"missing case_id", `{"task_path": "a.md"}`, nil, `d:1: missing field "case_id"`, CodeParse},
		{"task_path a number", `{"case_id": "a", "task_path": 1}`, nil, `d:1: field "task_path": expected a string, found the number 1`, CodeParse},
		{"unknown field", `{"case_id": "a", "task_path": "a.md", "task": "x"}`, nil, `d:1: unknown field "task", expected "case_id", "task_path" or "expected"`, CodeParse},
		{"expected answer", "{\"case_id\": \"a\", \"task_path\": \"a.md\"}\n{\"case_id\": \"b\", \"task_path\": \"b.md\", \"expected\": \"42\"}",
			nil, "d:2: not implemented: a case's expected answer", CodeNotImplemented},
		{"not JSON", "case a", nil, "d:1: not valid JSON", CodeParse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDataset("d", []byte(tc.in))
			if tc.err != "" {
				var d *diag.Error
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &d) || d.Code != tc.code {
					t.Fatalf("error %v, want %s %q", err, tc.code, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, %v", got, err)
			}
		})
	}
}
