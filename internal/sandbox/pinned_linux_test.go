package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A native tool runs from a sealed memfd passed as fd 3 (tools'
// pinBinary): contained, a #! tool still runs, its interpreter granted
// through Scope.Libraries and fd 3 kept for it to read, while the staged
// file itself stays unexecutable.
func TestPinnedScriptRunsContained(t *testing.T) { eachClass(t, pinnedScriptRunsContained) }

func pinnedScriptRunsContained(t *testing.T, j jail) {
	script := []byte("#!/bin/sh\necho contained-ok\n")
	staged := filepath.Join(j.workdir, "tools", "t", "t")
	if err := os.MkdirAll(filepath.Dir(staged), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(staged, script, 0o755); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.MemfdCreate("pinned", unix.MFD_CLOEXEC|unix.MFD_EXEC)
	if err != nil {
		t.Fatal(err)
	}
	mem := os.NewFile(uintptr(fd), "pinned")
	defer mem.Close()
	if _, err := mem.Write(script); err != nil {
		t.Fatal(err)
	}
	abi, netns := escapeHost(t, j.sealed)
	sc := Scope{LandlockABI: abi, NetNS: netns, Seccomp: true, Sealed: j.sealed, Workdir: j.workdir, PathEnv: os.Getenv("PATH"),
		Libraries: []string{staged}, KeepFDs: []int{3}}
	tr := Trampoline{Self: j.attacker, Limits: Rlimits{ExtraProcesses: 64, OpenFiles: 64, FileSizeBytes: 1 << 20, CPUSeconds: 10, MemoryBytes: 1 << 31},
		Plan: sc.Plan(HostNetNS())}
	for _, tc := range []struct {
		name, path string
		want       string
	}{
		{"the pinned copy runs", "/proc/self/fd/3", "contained-ok"},
		{"the staged file does not", staged, "permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(tc.path)
			cmd.Dir, cmd.ExtraFiles = j.workdir, []*os.File{mem}
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			err := tr.Start(cmd)
			if err == nil {
				err = cmd.Wait()
			}
			if got := out.String() + fmt.Sprint(err); !strings.Contains(got, tc.want) {
				t.Errorf("%s: %s", tc.path, got)
			}
		})
	}
}
