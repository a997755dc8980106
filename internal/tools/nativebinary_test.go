package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A native tool's binary changed after staging never runs: the call fails
// with ErrBinaryChanged, whatever the change.
func TestNativeToolRefusesChangedBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the replacement is a shell script")
	}
	staged := buildNativeTool(t)
	digest := fileSHA256(t, staged)
	const evil = "#!/bin/sh\ntouch pwned\n"
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, bin string)
	}{
		{"renamed over", func(t *testing.T, bin string) {
			writeFile(t, bin+".new", evil, 0o755)
			if err := os.Rename(bin+".new", bin); err != nil {
				t.Fatal(err)
			}
		}},
		{"rewritten in place", func(t *testing.T, bin string) { writeFile(t, bin, evil, 0o755) }},
		{"symlink to the staged bytes", func(t *testing.T, bin string) {
			real := bin + ".real"
			if err := os.Rename(bin, real); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(real, bin); err != nil {
				t.Fatal(err)
			}
		}},
		{"no digest", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			workdir := t.TempDir()
			bin := filepath.Join(t.TempDir(), "nt")
			b, err := os.ReadFile(staged)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, bin, string(b), 0o755)
			tool := &NativeTool{Name: "nt", Path: bin, SHA256: digest, Dir: workdir, Deadline: time.Minute}
			if tc.tamper == nil {
				tool.SHA256 = ""
			} else {
				tc.tamper(t, bin)
			}
			_, err = tool.Invoke(context.Background(), ToolInput{Data: Str("raw")})
			if !errors.Is(err, ErrBinaryChanged) || !strings.HasPrefix(err.Error(), "native tool 'nt' was not run: ") {
				t.Fatalf("error = %v, want the changed-binary refusal", err)
			}
			if _, err := os.Stat(filepath.Join(workdir, "pwned")); err == nil {
				t.Fatal("the replacement ran")
			}
		})
	}
}

// The staged bytes run as themselves: argv[0] is the staged path, and a
// #! script (interpreter reading it through fd 3) works.
func TestNativeToolRunsVerifiedScript(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script")
	}
	bin := filepath.Join(t.TempDir(), "sh-tool")
	writeFile(t, bin, "#!/bin/sh\necho \"{\\\"status\\\":\\\"passed\\\",\\\"data\\\":\\\"$0\\\"}\"\n", 0o755)
	tool := &NativeTool{Name: "sh-tool", Path: bin, SHA256: fileSHA256(t, bin), Dir: t.TempDir(), Deadline: time.Minute}
	r, err := tool.Invoke(context.Background(), ToolInput{})
	if err != nil || r.Status != StatusPassed || r.Data == nil {
		t.Fatalf("%+v, %v", r, err)
	}
}

func writeFile(t *testing.T, path, text string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}
