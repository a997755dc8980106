package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

const toolRunWorld = `world root {
  export murmur:tool/run@0.2.0: interface {
    enum status {
      passed,
      failed,
      error,
    }

    record tool-input {
      data: option<string>,
      log-path: option<string>,
    }

    record attachment {
      media-type: string,
      path: string,
    }

    record tool-result {
      status: status,
      summary: option<string>,
      data: option<string>,
      data-path: option<string>,
      truncated: bool,
      metadata: list<tuple<string, string>>,
      attachments: list<attachment>,
    }

    run: func(input: tool-input) -> tool-result;
  }
}
`

func TestWasmInspect(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(cacheDirEnv, cache)
	o := mur(t, "wasm", "inspect", testguest.Path(testguest.DriverCanned))
	o.want(t, 0, "", "")
	if o.stdout != toolRunWorld {
		t.Errorf("inspect printed:\n%s\nwant:\n%s", o.stdout, toolRunWorld)
	}
	if entries, err := os.ReadDir(cache); err != nil || len(entries) == 0 {
		t.Errorf("%s=%s holds nothing after compiling (%v)", cacheDirEnv, cache, err)
	}
}

func TestWasmInspectFailures(t *testing.T) {
	dir := t.TempDir()
	notWasm := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notWasm, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}

	mur(t, "wasm", "inspect", filepath.Join(dir, "missing.wasm")).want(t, 1, "", "no such file or directory")
	o := mur(t, "wasm", "inspect", notWasm)
	o.want(t, 1, "", "mur: compiling "+notWasm+": ")
}
