package launch_test

// A driver built by another toolchain runs unchanged: driver-rust
// (guests/rust/driver) is compiled by rustc, with its canonical-ABI glue
// laid out as wit-bindgen lays it out, and componentized by jco against
// murmur's driver world. Through the mur binary it must link (its
// murmur:text/chunks import included, outside any A2A task), take the
// request, call a tool and end the session with what the tool answered.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

func TestForeignToolchainDriverRunsAnAgentSession(t *testing.T) {
	inspect, stderr, code := runMur(t.TempDir(), nil, "wasm", "inspect", testguest.Path(testguest.DriverRust))
	if code != 0 {
		t.Fatalf("mur wasm inspect: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"import murmur:text/chunks@0.1.0", "export murmur:tool/run@0.1.0"} {
		if !strings.Contains(inspect, want) {
			t.Errorf("driver-rust's world lacks %q:\n%s", want, inspect)
		}
	}

	pkgs := t.TempDir()
	for name, spec := range map[string]struct{ runtime, guest string }{
		"rusty": {"driver", testguest.DriverRust},
		"echo":  {"tool", testguest.ToolrunGo},
	} {
		dir := filepath.Join(pkgs, name)
		if err := copyFile(testguest.Path(spec.guest), filepath.Join(dir, name+".wasm")); err != nil {
			t.Fatal(err)
		}
		yaml := "name: " + name + "\nversion: \"0.1.0\"\nruntime: " + spec.runtime + "\nrequires_files: [" + name + ".wasm]\n"
		if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := runMur(pkgs, nil, "build", dir, "-o", pkgs); code != 0 {
			t.Fatalf("mur build %s: exit %d\n%s", name, code, stderr)
		}
	}

	p := &project{t: t, dir: t.TempDir()}
	manifest := `name: foreign
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: any
  driver:
    artifact: rusty
artifacts:
  - name: rusty
    version: "0.1.0"
    runtime: driver
  - name: echo
    version: "0.1.0"
    runtime: tool
`
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rusty", "echo"} {
		p.mur(0, "install", filepath.Join(pkgs, name+"-0.1.0.mur.zip"))
	}
	stdout, stderr := p.mur(0, "run", "--task", "hello")
	if want := "status:  ok\necho answered: }\"olleh\":\"txet\"{\n"; !strings.HasSuffix(stdout, want) {
		t.Errorf("stdout does not end with status ok and the answer:\n%s\nstderr:\n%s", stdout, stderr)
	}
	result := []byte(sessionResult(t, p.dir))
	// Turn 1: the driver called echo with {"text": <task>}; echo (toolrun-go)
	// answers its input reversed. Turn 2: the driver ended with that answer.
	if want := `echo answered: }"olleh":"txet"{`; string(result) != want {
		t.Errorf("out/result.txt = %q, want %q\nstderr:\n%s", result, want, stderr)
	}
}
