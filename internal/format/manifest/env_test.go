package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestParseDotEnv(t *testing.T) {
	vars, err := ParseDotEnv([]byte("# comment\r\n\nA=1\r\n B = two words \nC=\"quoted\"\nD='single'\nE=\"mismatch'\nF=\"\nG=a=b\nexport H=x\nI=v # not a comment\nJ=\n"), ".env")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range vars {
		got[v.Key] = v.Value
	}
	want := map[string]string{"A": "1", "B": "two words", "C": "quoted", "D": "single", "E": "\"mismatch'", "F": "\"", "G": "a=b", "export H": "x", "I": "v # not a comment", "J": ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	for src, msg := range map[string]string{
		"A=1\nnoequals\n": "invalid .env entry at line 2: expected KEY=VALUE",
		" =x\n":           "invalid .env entry at line 1: empty variable name",
	} {
		_, err := ParseDotEnv([]byte(src), ".env")
		if e, ok := err.(*diag.Error); !ok || e.Code != CodeIO || e.Msg != msg {
			t.Errorf("%q: %v", src, err)
		}
	}
}

func TestLayerEnv(t *testing.T) {
	env := LayerEnv(envOf("A", "proc", "EMPTY", ""), []EnvVar{{Key: "A", Value: "file"}, {Key: "EMPTY", Value: "file"}, {Key: "B", Value: "b1"}, {Key: "B", Value: "b2"}})
	for k, want := range map[string]string{"A": "proc", "EMPTY": "", "B": "b1"} {
		if v, ok := env(k); !ok || v != want {
			t.Errorf("%s = %q %v, want %q", k, v, ok, want)
		}
	}
	if _, ok := env("C"); ok {
		t.Error("C must be unset")
	}
}

func TestEnvRef(t *testing.T) {
	for s, want := range map[string]string{"${A}": "A", "${_X9}": "_X9", "${A_B_1}": "A_B_1", "${9A}": "", "${a}": "", "$A": "", "x${A}": "", "${}": "", "${A}x": ""} {
		got, ok := envRef(s)
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q %v", s, got, ok)
		}
	}
}

func TestFindDotEnvDir(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := FindDotEnvDir(deep); got != deep {
		t.Errorf("no murmur.yaml: %s", got)
	}
	if err := os.WriteFile(filepath.Join(root, "a", FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := FindDotEnvDir(deep); got != filepath.Join(root, "a") {
		t.Errorf("walk up: %s", got)
	}
}
