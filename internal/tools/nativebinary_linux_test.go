package tools

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Without memfds the runner execs the descriptor it hashed.
func TestPinOpenFileFallback(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "t")
	writeFile(t, bin, "#!/bin/sh\necho fallback-ran\n", 0o755)
	for _, tc := range []struct {
		name, digest string
		ok           bool
	}{
		{"matching", fileSHA256(t, bin), true},
		{"changed", fileSHA256(t, "/bin/sh"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pinOpenFile("t", bin, tc.digest, f)
			if !tc.ok {
				if !errors.Is(err, ErrBinaryChanged) {
					t.Fatalf("err = %v, want ErrBinaryChanged", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			cmd := exec.Command(p.Path)
			cmd.ExtraFiles = []*os.File{p.File}
			if out, err := cmd.Output(); err != nil || string(out) != "fallback-ran\n" {
				t.Fatalf("%q, %v", out, err)
			}
		})
	}
}
