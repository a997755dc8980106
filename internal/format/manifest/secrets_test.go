package manifest

import (
	"testing"
)

func TestScanSecrets(t *testing.T) {
	src := `name: demo
version: "0.1.0"
inference:
  api_key: sk-abc
  API_KEY_2: ${ANTHROPIC_API_KEY}
  token2: ${1ABC}
  max_tokens: 100000000000
artifacts:
  - token: abcdefghij
    my_secret: short
    Password: "12345678"
    nested: [{db_password: "correct-horse"}]
tokenizer: cl100k_base
`
	ws, err := ScanSecrets([]byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, w.Msg)
		if w.Code != WarnLiteralSecret || w.Line == 0 || w.DocLink() != "https://docs.murmur.nexus/murmur-nexus/murmur/reference/diagnostics/#w-sec-004" {
			t.Errorf("bad warning %+v", w)
		}
	}
	want := []string{
		"field 'inference.api_key' appears to contain a literal secret value",
		"field 'artifacts.0.token' appears to contain a literal secret value",
		"field 'artifacts.0.nested.0.db_password' appears to contain a literal secret value",
		"field 'tokenizer' appears to contain a literal secret value",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("[%d] %q, want %q", i, got[i], want[i])
		}
	}
	if ws[1].Path != "artifacts[0].token" {
		t.Errorf("path %q", ws[1].Path)
	}
	if _, err := ScanSecrets([]byte("a: [b"), ""); err == nil {
		t.Error("want syntax error")
	}
	// Off by default in Parse.
	_, w, _ := Parse([]byte(src), "", ParseOptions{Env: envOf()})
	if hasWarn(w, WarnLiteralSecret, "") {
		t.Error("scan must be opt-in")
	}
}
