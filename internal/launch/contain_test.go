//go:build linux

package launch_test

// Kernel containment of a native tool through the mur binary: the tool
// (testdata/escape, installed as "secret", the third tool capsule-steps
// calls) tries to read and write outside the workdir, exec a binary,
// reach a loopback server of the host, open an AF_UNIX socket, make a
// user namespace, ptrace and stay in the host's network namespace, and
// connects to the one server capabilities.network.allow names. On this
// host (Linux with Landlock, seccomp and user namespaces, as CI is) each
// attempt must be refused and that connection made, whether mur runs as
// root or, in userns_linux_test.go, as an unprivileged uid.

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var escapePkg = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-escape-pkg-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(src, "escape-bin")
	if err := goBuild(bin, "./internal/launch/testdata/escape"); err != nil {
		return "", err
	}
	dir := filepath.Join(src, "secret")
	if err := artifactDir(dir, "secret", "implementation: native\n", map[string]string{"bin/secret": bin}); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build: exit %d\n%s", code, stderr)
	}
	return filepath.Join(src, "secret-0.1.0.mur.zip"), nil
})

func TestNativeToolIsContained(t *testing.T) {
	for _, class := range []string{"scoped", "sealed"} {
		t.Run(class, func(t *testing.T) { nativeToolIsContained(t, class, self(t)) })
	}
}

// nativeToolIsContained runs the escape tool at class with mur started
// as u.
func nativeToolIsContained(t *testing.T, class string, u asUser) {
	pkg, err := escapePkg()
	if err != nil {
		t.Fatal(err)
	}
	trial := newEscapeTrial(t)
	p := newProject(t, "  containment: "+class+"\n", []string{"record"})
	p.mur(0, "install", pkg)
	manifest := "name: steps\nversion: \"0.1.0\"\nartifacts:\n" +
		"  - name: record\n    version: \"0.1.0\"\n    runtime: tool\n" +
		"  - name: secret\n    version: \"0.1.0\"\n    runtime: tool\n" +
		fmt.Sprintf("capabilities:\n  containment: %s\n  network:\n    allow: [\"%s\"]\n", class, trial.allowed)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &session{workdir: t.TempDir()}
	for name, text := range map[string]string{"targets.txt": trial.targets, "peer.txt": "http://127.0.0.1:9/"} {
		if err := os.WriteFile(filepath.Join(s.workdir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u.give(t, p.dir, s.workdir, trial.outside)
	c := u.command(p.dir, "run", "--workdir", s.workdir)
	var stderrb strings.Builder
	c.Stderr = &stderrb
	err = c.Run()
	stderr := stderrb.String()
	if err != nil {
		t.Fatalf("mur run as %s: %v\nstderr:\n%s", u.name, err, stderr)
	}
	b, err := os.ReadFile(filepath.Join(s.workdir, "escape.txt"))
	if err != nil {
		record, _ := os.ReadFile(filepath.Join(s.workdir, "record.txt"))
		t.Fatalf("the tool left no report: %v\nrecord.txt:\n%s\nstderr:\n%s", err, record, stderr)
	}
	trial.check(t, string(b))
}

// escapeTrial is what the escape tool is pointed at: a secret and a
// place to plant a file outside the workdir, a loopback server of the
// host it must not reach, and the one server network.allow may name.
type escapeTrial struct {
	// targets is targets.txt for the workdir; allowed the address to
	// put in capabilities.network.allow; outside the directory to give
	// the user mur runs as.
	targets, allowed, outside string
	accepted                  chan struct{}
}

func newEscapeTrial(t *testing.T) *escapeTrial {
	t.Helper()
	// The one server network.allow names: reached through the namespace's
	// listener and mur's splice.
	allowed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { allowed.Close() })
	go func() {
		if c, err := allowed.Accept(); err == nil {
			c.Write([]byte("allowed upstream"))
			c.Close()
		}
	}()
	outside := t.TempDir()
	secret := filepath.Join(outside, "id_ed25519")
	if err := os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	id, err := exec.LookPath("id")
	if err != nil {
		t.Fatal(err)
	}
	netns, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	targets := fmt.Sprintf("secret=%s\nplant=%s\nexec=%s\nserver=%s\nallowed=%s\nnetns=%s\n", secret, filepath.Join(outside, "planted"), id, ln.Addr(), allowed.Addr(), netns)
	return &escapeTrial{targets: targets, allowed: allowed.Addr().String(), outside: outside, accepted: accepted}
}

// check holds the tool's report to every crossing refused and the one
// allowed connection made.
func (e *escapeTrial) check(t *testing.T, report string) {
	t.Helper()
	report = strings.TrimSpace(report)
	for _, c := range []string{"read-outside", "write-outside", "exec-unlisted", "connect-loopback", "unix-socket", "unshare", "ptrace", "host-netns"} {
		if !strings.Contains(report, c+" refused: ") {
			t.Errorf("%s was not refused:\n%s", c, report)
		}
	}
	if !strings.Contains(report, `connect-allowed escaped: connected to `+e.allowed+` and read "allowed upstream"`) {
		t.Errorf("the network.allow destination was not reached:\n%s", report)
	}
	if _, err := os.Stat(filepath.Join(e.outside, "planted")); err == nil {
		t.Error("the tool wrote outside its workdir")
	}
	select {
	case <-e.accepted:
		t.Error("the host's loopback server accepted the tool's connection")
	default:
	}
}
