package manifest

import (
	"strings"
	"testing"
)

// A tool record is read as session.md §2.1 and §2.3 read a manifest in
// tools/: no key is required, wrong types count as absent, input_schema
// wins over input; only text that is not one YAML mapping fails.
func TestParseToolRecord(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       ToolRecord
		err        string
	}{
		{"a description alone", "description: '  from on-stage '\n",
			ToolRecord{Description: "from on-stage", InputSchema: DefaultInputSchema}, ""},
		{"a full manifest", "name: git\nversion: 0.0.0\nruntime: tool\nimplementation: native\ndescription: Runs git.\n" +
			`input_schema: "{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"}}}"` + "\n",
			ToolRecord{Runtime: "tool", Description: "Runs git.", InputSchema: `{"properties":{"command":{"type":"string"}},"type":"object"}`}, ""},
		{"input as a YAML mapping", "runtime: hook\ninput: {type: object, required: [q]}\n",
			ToolRecord{Runtime: "hook", InputSchema: `{"required":["q"],"type":"object"}`}, ""},
		{"input_schema wins over input, even unusable", "input_schema: '{not json'\ninput: {type: object}\n",
			ToolRecord{InputSchema: DefaultInputSchema}, ""},
		{"wrong types count as absent; unknown keys are allowed", "runtime: [tool]\ndescription: 3\ncommand: x\n",
			ToolRecord{InputSchema: DefaultInputSchema}, ""},
		{"not YAML", "description: [\n", ToolRecord{}, "YAML syntax error"},
		{"not a mapping", "- description: x\n", ToolRecord{}, "expected mapping, got sequence"},
		{"empty", "", ToolRecord{}, "expected mapping, got null"},
		{"a key twice", "description: a\ndescription: b\n", ToolRecord{}, "duplicate key 'description'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseToolRecord([]byte(c.yaml), "tools/git/murmur.yaml")
			if c.err != "" {
				if err == nil || got != nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "tools/git/murmur.yaml") {
					t.Fatalf("got %+v, %v; want an error naming the file with %q", got, err, c.err)
				}
				return
			}
			if err != nil || *got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}
