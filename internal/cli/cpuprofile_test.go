package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MUR_CPUPROFILE makes mur run write a profile, even of a failed run; a
// path that cannot be created fails the run before anything runs.
func TestRunCPUProfile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    func(dir string) string
		written bool
		stderr  string
	}{
		{"written", func(dir string) string { return filepath.Join(dir, "cpu.prof") }, true, "E-RUN-004"},
		{"uncreatable", func(dir string) string { return filepath.Join(dir, "missing", "cpu.prof") }, false, "creating the CPU profile MUR_CPUPROFILE="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := capsuleDir(t, scriptYAML, nil)
			path := tc.path(t.TempDir())
			t.Setenv(cpuProfileEnv, path)
			_, stderr, code := runIn(t, dir)
			if code != exitFailure {
				t.Errorf("exit %d, want %d", code, exitFailure)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
			fi, err := os.Stat(path)
			if tc.written && (err != nil || fi.Size() == 0) {
				t.Errorf("no profile at %s: %v", path, err)
			}
			if !tc.written && err == nil {
				t.Errorf("a profile at %s", path)
			}
		})
	}
}
