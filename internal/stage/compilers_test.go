package stage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// W-SEC-012's finding: the helpers an allowlisted compiler driver reports
// that no Execute-carrying grant covers. The driver here is a script
// answering -print-prog-name as gcc does: a path, or a bare name found
// on PATH.
func TestUncoveredHelpers(t *testing.T) {
	dir := t.TempDir()
	bin, libexec, granted := filepath.Join(dir, "bin"), filepath.Join(dir, "libexec"), filepath.Join(dir, "granted")
	for _, d := range []string{bin, libexec, granted} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(bin, "gcc"): "#!/bin/sh\ncase \"$1\" in\n-print-prog-name=cc1) echo " + filepath.Join(libexec, "cc1") + ";;\n" +
			"-print-prog-name=collect2) echo " + filepath.Join(granted, "collect2") + ";;\n*) echo \"${1#-print-prog-name=}\";;\nesac\n",
		filepath.Join(bin, "as"):           "#!/bin/sh\n",
		filepath.Join(libexec, "cc1"):      "#!/bin/sh\n",
		filepath.Join(granted, "collect2"): "#!/bin/sh\n",
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	yaml := "name: c\nversion: '1'\ncapabilities:\n  shell:\n    allow: [gcc]\n    interpreter_runtime: [{binary: gcc, dirs: [{path: " + granted + ", list_dir: false}]}]\n"
	f, _, err := manifest.Parse([]byte(yaml), "", manifest.ParseOptions{Role: manifest.RoleCapsule, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	got := uncoveredHelpers(context.Background(), f.Capsule.Capabilities, bin)
	want := []policy.CompilerHelper{{Driver: "gcc", Helper: "cc1", Path: filepath.Join(libexec, "cc1")}, {Driver: "gcc", Helper: "as", Path: filepath.Join(bin, "as")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
