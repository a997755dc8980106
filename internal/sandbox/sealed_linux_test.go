package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sealedJail is a jail whose cases run at the sealed tier.
func sealedJail(t *testing.T) jail {
	t.Helper()
	j := newJail(t)
	j.sealed = true
	return j
}

// The sealed view (security.md §10.3): what a subprocess sees of the host
// at sealed is the composed root, so the host's secrets are not refused
// but absent, /tmp and /etc/passwd are the workdir's, /dev holds six
// nodes, and nothing outside the workdir is writable.
func TestSealedView(t *testing.T) {
	j := sealedJail(t)
	tmpMarker := filepath.Join(j.workdir, sealedTmp, "from-host")
	if err := os.MkdirAll(filepath.Dir(tmpMarker), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmpMarker, []byte("the workdir's tmp"), 0o644); err != nil {
		t.Fatal(err)
	}
	absent := func(got string) bool {
		return strings.HasPrefix(got, "refused: ") && strings.Contains(got, "no such file or directory")
	}
	refused := func(got string) bool { return strings.HasPrefix(got, "refused: ") }
	for _, tc := range []struct {
		name string
		args []string
		ok   func(string) bool
	}{
		{"/etc/shadow is absent", []string{"lstat", "/etc/shadow"}, absent},
		{"/home is absent", []string{"lstat", "/home"}, absent},
		{"the secret's directory is absent", []string{"lstat", j.outside}, absent},
		{"/root is absent", []string{"lstat", "/root"}, absent},
		{"/tmp is the workdir's .mur-tmp", []string{"read", "/tmp/from-host"}, func(got string) bool { return got == `escaped: read "the workdir's tmp"` }},
		{"/usr is read-only", []string{"write", "/usr/pwned"}, refused},
		{"/etc is read-only", []string{"write", "/etc/pwned"}, refused},
		{"the root is read-only", []string{"write", "/pwned"}, refused},
		{"/dev is read-only", []string{"write", "/dev/pwned"}, refused},
		{"the runtime's /proc entry is unreadable", []string{"read", "/proc/" + strconv.Itoa(os.Getpid()) + "/cmdline"}, refused},
		{"/proc cannot be listed", []string{"readdir", "/proc"}, refused},
		{"/dev/shm is absent", []string{"lstat", "/dev/shm"}, absent},
		{"/dev/pts is absent", []string{"lstat", "/dev/pts"}, absent},
		{"/dev/null is a device", []string{"lstat", "/dev/null"}, func(got string) bool { return got == "escaped: /dev/null is Dc---------" }},
		{"/dev/fd is a link", []string{"lstat", "/dev/fd"}, func(got string) bool { return got == "escaped: /dev/fd is L---------" }},
		{"/bin is the usrmerge link", []string{"lstat", "/bin"}, func(got string) bool {
			fi, err := os.Lstat("/bin")
			return err == nil && (fi.Mode()&os.ModeSymlink == 0 || got == "escaped: /bin is L---------")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := j.attack(t, tc.args...); !tc.ok(got) {
				t.Errorf("%s", got)
			}
		})
	}
	// Of the host's device nodes only the six (and the five links) are
	// there: checked for those and for the host's others that matter.
	want := map[string]bool{"null": true, "zero": true, "full": true, "tty": true, "random": true, "urandom": true,
		"fd": true, "stdin": true, "stdout": true, "stderr": true, "ptmx": true}
	names := []string{"mem", "kmem", "kmsg", "port", "vda", "sda", "nvme0", "console", "loop0", "fuse", "net", "mqueue", "hugepages", "core", "cpu", "input", "vsock"}
	for n := range want {
		names = append(names, n)
	}
	for _, n := range names {
		if _, err := os.Lstat("/dev/" + n); err != nil && !want[n] {
			continue // not on this host either
		}
		got := j.attack(t, "lstat", "/dev/"+n)
		if present := strings.HasPrefix(got, "escaped: "); present != want[n] {
			t.Errorf("/dev/%s present %v: %s", n, present, got)
		}
	}
}

// getpwuid and id see the synthetic user (§10.3): a capsule user with the
// synthetic HOME, or root with it when the runtime runs as root.
func TestSealedUser(t *testing.T) {
	t.Run("as root", func(t *testing.T) {
		j := sealedJail(t)
		home := filepath.Join(j.workdir, ".capsule-home")
		if os.Geteuid() != 0 {
			t.Skip("the runtime is not root here")
		}
		if got := j.attack(t, "whoami"); got != "escaped: uid 0 user root home "+home {
			t.Errorf("%s", got)
		}
	})
	t.Run("as another uid", func(t *testing.T) {
		j := sealedJail(t)
		home := filepath.Join(j.workdir, ".capsule-home")
		// As root the case runs as nobody; otherwise the runtime's own
		// uid is the other one.
		attrs, uid := asNobody(t, j), os.Getuid()
		if attrs != nil {
			uid = 65534
		}
		if got := j.run(t, Scope{}, attrs, j.attacker, attackMode, "whoami"); got != "escaped: uid "+strconv.Itoa(uid)+" user capsule home "+home {
			t.Errorf("%s", got)
		}
		id := lookPathAll("id", os.Getenv("PATH"))
		if len(id) == 0 {
			t.Fatal("no id binary")
		}
		if got := j.run(t, Scope{Binaries: []string{"id"}}, attrs, id[0], "-un"); got != "capsule" {
			t.Errorf("id -un: %q", got)
		}
	})
}

// A link the capsule left where the sealed root takes its /tmp and its
// /etc/passwd from redirects nothing: the next subprocess gets fresh ones.
func TestSealedPlantedLinks(t *testing.T) {
	j := sealedJail(t)
	if err := os.Symlink(j.outside, filepath.Join(j.workdir, sealedTmp)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(j.workdir, sealedEtc), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(j.secret, filepath.Join(j.workdir, sealedEtc, "passwd")); err != nil {
		t.Fatal(err)
	}
	if got := j.attack(t, "write", "/tmp/authorized_keys"); !strings.HasPrefix(got, "escaped: ") {
		t.Errorf("writing /tmp: %s", got)
	}
	if _, err := os.Stat(filepath.Join(j.outside, "authorized_keys")); err == nil {
		t.Error("/tmp was the planted link's target")
	}
	if got := j.attack(t, "read", "/etc/passwd"); strings.Contains(got, "PRIVATE KEY") || !strings.Contains(got, "root:x:0:0:") {
		t.Errorf("/etc/passwd: %s", got)
	}
	if b, err := os.ReadFile(j.secret); err != nil || string(b) != "PRIVATE KEY" {
		t.Errorf("the secret was changed: %q, %v", b, err)
	}
}

// The root is composed a few descriptors at a time: a small
// capabilities.resources.max_open_files (applied first, §9.4) still
// leaves room for it.
func TestSealedUnderFewFiles(t *testing.T) {
	j := sealedJail(t)
	abi, netns := escapeHost(t, true)
	sc := Scope{LandlockABI: abi, NetNS: netns, Seccomp: true, Sealed: true, Workdir: j.workdir, PathEnv: os.Getenv("PATH"), Binaries: []string{"sh"}}
	cmd := exec.Command("/bin/sh", "-c", "echo sealed > /tmp/ok")
	cmd.Dir = j.workdir
	tr := Trampoline{Self: j.attacker, Limits: Rlimits{ExtraProcesses: 64, OpenFiles: 20, FileSizeBytes: 1 << 20, CPUSeconds: 10, MemoryBytes: 4 << 30},
		Plan: sc.Plan(HostNetNS())}
	if err := tr.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(j.workdir, sealedTmp, "ok")); err != nil || string(b) != "sealed\n" {
		t.Errorf("%q, %v", b, err)
	}
}
