package search

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func strp(s string) *string { return &s }

func TestDecode(t *testing.T) {
	const head = `{"schema_version":"1","updated_at":"2026-06-07T00:00:00Z","artifacts":`
	for _, c := range []struct {
		name, doc string
		want      []Entry
		err       string
	}{
		{name: "full entry", doc: head + `[{"name":"murmur-tool-git","version":"1.0.0","runtime":"tool","description":"Git.","tags":["git"],"platforms":["linux-x86_64"]}]}`,
			want: []Entry{{Name: "murmur-tool-git", Version: "1.0.0", Runtime: "tool", Description: strp("Git."), Tags: []string{"git"}, Platforms: []string{"linux-x86_64"}}}},
		{name: "optional fields absent or null", doc: head + `[{"name":"a","version":"1","runtime":"skill","description":null}]}`,
			want: []Entry{{Name: "a", Version: "1", Runtime: "skill", Tags: []string{}, Platforms: []string{}}}},
		{name: "unknown keys skipped as serde skips them", doc: `{"schema_version":"1","updated_at":"x","extra":{"deep":[1]},"artifacts":[{"name":"a","version":"1","runtime":"tool","sha256":"00"}]}`,
			want: []Entry{{Name: "a", Version: "1", Runtime: "tool", Tags: []string{}, Platforms: []string{}}}},
		{name: "empty artifacts", doc: head + `[]}`, want: []Entry{}},
		{name: "other schema version", doc: `{"schema_version":"99","updated_at":"x","artifacts":[]}`, err: "unsupported artifact index schema version '99' from test (expected 1)"},
		{name: "other schema version before the rest", doc: `{"schema_version":"2","catalogue":{}}`, err: "unsupported artifact index schema version '2'"},
		{name: "schema version escaped", doc: `{"schema_version":"\u001b]0;pwned\u0007"}`, err: `version '\x1b]0;pwned\a'`},
		{name: "schema version a number", doc: `{"schema_version":1,"updated_at":"x","artifacts":[]}`, err: `field "schema_version": expected a string, found a number`},
		{name: "missing schema version", doc: `{"updated_at":"x","artifacts":[]}`, err: `missing field "schema_version"`},
		{name: "missing updated_at", doc: `{"schema_version":"1","artifacts":[]}`, err: `missing field "updated_at"`},
		{name: "missing artifacts", doc: `{"schema_version":"1","updated_at":"x"}`, err: `missing field "artifacts"`},
		{name: "artifacts an object", doc: head + `{}}`, err: `field "artifacts": expected an array, found an object`},
		{name: "entry not an object", doc: head + `["a"]}`, err: `artifacts[0]: expected an object, found a string`},
		{name: "keys matched exactly", doc: head + `[{"Name":"a","version":"1","runtime":"tool"}]}`, err: `artifacts[0]: missing field "name"`},
		{name: "repeated key", doc: head + `[{"name":"a","name":"b","version":"1","runtime":"tool"}]}`, err: `artifacts[0]: duplicate field "name"`},
		{name: "repeated top-level key", doc: `{"schema_version":"1","schema_version":"1","updated_at":"x","artifacts":[]}`, err: `duplicate field "schema_version"`},
		{name: "tags null", doc: head + `[{"name":"a","version":"1","runtime":"tool","tags":null}]}`, err: `field "tags": expected an array, found null`},
		{name: "tag not a string", doc: head + `[{"name":"a","version":"1","runtime":"tool","tags":[1]}]}`, err: `field "tags[0]": expected a string, found a number`},
		{name: "platforms not an array", doc: head + `[{"name":"a","version":"1","runtime":"tool","platforms":"linux"}]}`, err: `field "platforms": expected an array, found a string`},
		{name: "description a number", doc: head + `[{"name":"a","version":"1","runtime":"tool","description":5}]}`, err: `field "description": expected a string, found a number`},
		{name: "name null", doc: head + `[{"name":null,"version":"1","runtime":"tool"}]}`, err: `field "name": expected a string, found null`},
		{name: "trailing characters", doc: head + `[]} {}`, err: "trailing characters after the JSON object"},
		{name: "truncated", doc: head + `[`, err: "failed to parse artifact index from test:"},
		{name: "empty", doc: ``, err: "the JSON document ends early"},
		{name: "an array", doc: `[]`, err: "expected an object, found an array"},
		{name: "not UTF-8", doc: head + `[{"name":"a` + "\xff" + `","version":"1","runtime":"tool"}]}`, err: "not valid UTF-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Decode([]byte(c.doc), "test")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// FuzzDecode feeds the decoder arbitrary documents: it never panics, and
// what it accepts survives being written back and read again unchanged.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"schema_version":"1","updated_at":"x","artifacts":[{"name":"a","version":"1","runtime":"tool","description":"d","tags":["t"],"platforms":["linux-x86_64"]}]}`))
	f.Add([]byte(`{"schema_version":"1","updated_at":"x","artifacts":[{"name":"a","version":"1","runtime":"tool","description":null}]}`))
	f.Add([]byte(`{"schema_version":"2"}`))
	f.Add([]byte(`{"schema_version":"1","schema_version":"1"}`))
	f.Add([]byte(`[{"name":"\u001b[2J"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := Decode(data, "fuzz")
		if err != nil {
			return
		}
		type entryJSON struct {
			Name        string   `json:"name"`
			Version     string   `json:"version"`
			Runtime     string   `json:"runtime"`
			Description *string  `json:"description"`
			Tags        []string `json:"tags"`
			Platforms   []string `json:"platforms"`
		}
		out := make([]entryJSON, 0, len(entries))
		for _, e := range entries {
			if e.Tags == nil || e.Platforms == nil {
				t.Fatalf("accepted entry %+v has a nil list", e)
			}
			out = append(out, entryJSON(e))
		}
		again, err := json.Marshal(map[string]any{"schema_version": "1", "updated_at": "x", "artifacts": out})
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(again, "fuzz")
		if err != nil {
			t.Fatalf("re-encoded index refused: %v", err)
		}
		if !reflect.DeepEqual(back, entries) {
			t.Fatalf("round trip changed the entries:\n%+v\n%+v", entries, back)
		}
	})
}
