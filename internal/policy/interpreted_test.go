package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

// A shell.allow script the sealed root cannot reach is refused with
// E-CAP-006 (§10.2 step 4); a grant naming it, its interpreter or its
// directory, or a fixed system path, lets it through.
func TestCheckInterpreted(t *testing.T) {
	bin := t.TempDir()
	for name, text := range map[string]string{
		"tool":   "#!/usr/bin/env sh\necho hi\n",
		"direct": "#!/bin/sh\necho hi\n",
		"plain":  "\x7fELF not a script",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pathEnv := bin + ":" + os.Getenv("PATH")
	for _, tc := range []struct {
		name, shell string
		floor       Class
		refused     string
	}{
		{"an env script outside every grant", "{allow: [tool]}", Sealed, "'tool' resolves to the script " + filepath.Join(bin, "tool")},
		{"a #! script outside every grant", "{allow: [direct]}", Sealed, "(interpreter /bin/sh)"},
		{"below sealed nothing is checked", "{allow: [tool]}", Scoped, ""},
		{"not a script", "{allow: [plain]}", Sealed, ""},
		{"a system binary", "{allow: [sh]}", Sealed, ""},
		{"its directory granted", "{allow: [tool], interpreter_runtime: [{binary: tool, dirs: [{path: " + bin + ", list_dir: false}]}]}", Sealed, ""},
		{"its interpreter named by a grant", "{allow: [tool, sh], interpreter_runtime: [{binary: sh, dirs: [{path: /opt/none, list_dir: false}]}]}", Sealed, ""},
		{"a staged runtime names it", "{allow: [direct], staged_runtime: [{binary: direct, source_path: /opt/rt, pin: x}]}", Sealed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := parseCapsule(t, "name: c\nversion: '1'\ncapabilities:\n  shell: "+tc.shell+"\n").Capabilities
			err := CheckInterpreted(c, tc.floor, pathEnv)
			if tc.refused == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var d *diag.Error
			if !errors.As(err, &d) || d.Code != CodeInterpreted || !errors.Is(err, ErrInterpreted) || !strings.Contains(d.Msg, tc.refused) || d.Hint == "" {
				t.Fatalf("err = %v, want E-CAP-006 with %q", err, tc.refused)
			}
		})
	}
}
