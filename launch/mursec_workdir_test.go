package launch_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The WASM tool overwrites tools/victim/victim with a script; the next call
// of victim must run the staged binary or be refused, never the script.
func TestWasmToolCannotReplaceNativeBinary(t *testing.T) {
	dir := t.TempDir()
	secProject(t, dir, "attack", "victim")
	sess, record := secRun(t, dir, nil, nil, "--task", evilScript)
	if _, err := os.Stat(filepath.Join(sess, "pwned")); err == nil {
		t.Fatalf("the script the WASM tool wrote over victim's binary ran\nrecord.txt:\n%s", record)
	}
	ranOriginal := strings.Contains(record, "victim-ran\n")
	refused := refusedAsChanged(record)
	if !ranOriginal && !refused {
		t.Errorf("victim neither ran as staged nor was refused with the digest error\nrecord.txt:\n%s", record)
	}
	// With tools/ hidden from WASM guests the attack cannot even reach it.
	b, err := os.ReadFile(filepath.Join(sess, "tools", "victim", "victim"))
	if err != nil || string(b) == evilScript {
		t.Errorf("the WASM tool reached tools/victim/victim (read: %v)\nrecord.txt:\n%s", err, record)
	}
}

// A host process replaces victim's binary and swaps guide's skill.md for a
// symlink to /etc/passwd between calls: victim is refused with the digest
// error and guide answers with the text staging verified.
func TestStagedFilesReplacedOnHostAreNotTrusted(t *testing.T) {
	dir := t.TempDir()
	secProject(t, dir, "victim", "swap")
	sess, record := secRun(t, dir, nil, nil)
	if _, err := os.Stat(filepath.Join(sess, "pwned")); err == nil {
		t.Fatalf("the replaced binary ran\nrecord.txt:\n%s", record)
	}
	if !strings.Contains(record, "victim-ran\n") {
		t.Errorf("victim did not run before the swap\nrecord.txt:\n%s", record)
	}
	if !refusedAsChanged(record) {
		t.Errorf("the call after the swap was not refused with the changed-binary error\nrecord.txt:\n%s", record)
	}
	if !strings.Contains(record, "\n"+guideText+"\n") || strings.Contains(record, "root:") {
		t.Errorf("guide did not answer with its staged text %q\nrecord.txt:\n%s", guideText, record)
	}
}

// A planted task.md symlink in a reused --workdir must not redirect the
// runtime's write of --task to the file it points at.
func TestTaskSymlinkInWorkdirIsNotFollowed(t *testing.T) {
	dir, work := t.TempDir(), t.TempDir()
	secProject(t, dir)
	outside := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(work, "task.md")); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runMur(dir, nil, "run", "--workdir", work, "--task", "overwritten")
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Fatalf("mur wrote through the planted task.md symlink: the target now holds %q", b)
	}
	if code == 0 || !strings.Contains(stderr, "task.md") || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("exit %d, want a failed run saying task.md is a symbolic link\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// refusedAsChanged reports whether record.txt holds the native runner's
// refusal of victim's changed binary.
func refusedAsChanged(record string) bool {
	for _, line := range strings.Split(record, "\n") {
		if strings.HasPrefix(line, "native tool 'victim' was not run: its binary ") &&
			strings.Contains(line, filepath.Join("tools", "victim", "victim")+" changed since staging") {
			return true
		}
	}
	return false
}
