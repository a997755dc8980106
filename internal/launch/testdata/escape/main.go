// Command escape is the native tool of contain_test.go: installed as
// `secret` (capsule-steps' third call) it tries to cross each boundary of
// kernel containment from the workdir it runs in (and makes the one
// connection capabilities.network.allow grants; reports whether it is in
// the host's network namespace), and writes one line per
// attempt to escape.txt there: "<case> refused: <error>" or
// "<case> escaped: <what it got>". Its targets come from targets.txt
// (key=value lines the test writes), so the tool itself names no path of
// the test. It then answers as a passed tool call.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/sys/unix"
)

func main() {
	targets := map[string]string{}
	b, _ := os.ReadFile("targets.txt")
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			targets[k] = v
		}
	}
	var report strings.Builder
	try := func(name string, f func() (string, error)) {
		got, err := f()
		if err != nil {
			fmt.Fprintf(&report, "%s refused: %v\n", name, err)
		} else {
			fmt.Fprintf(&report, "%s escaped: %s\n", name, got)
		}
	}
	try("read-outside", func() (string, error) {
		b, err := os.ReadFile(targets["secret"])
		return fmt.Sprintf("%q", b), err
	})
	try("write-outside", func() (string, error) {
		return "wrote " + targets["plant"], os.WriteFile(targets["plant"], []byte("pwned"), 0o644)
	})
	try("exec-unlisted", func() (string, error) {
		out, err := exec.Command(targets["exec"]).CombinedOutput()
		return fmt.Sprintf("%q", out), err
	})
	try("connect-loopback", func() (string, error) {
		c, err := net.Dial("tcp", targets["server"])
		if err != nil {
			return "", err
		}
		c.Close()
		return "connected to " + targets["server"], nil
	})
	try("connect-allowed", func() (string, error) {
		c, err := net.Dial("tcp", targets["allowed"])
		if err != nil {
			return "", err
		}
		defer c.Close()
		b := make([]byte, 64)
		n, err := c.Read(b)
		return fmt.Sprintf("connected to %s and read %q", targets["allowed"], b[:n]), err
	})
	try("unix-socket", func() (string, error) {
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err == nil {
			unix.Close(fd)
		}
		return "opened", err
	})
	try("unshare", func() (string, error) {
		// Only seccomp's EPERM is a refusal: any other answer (EINVAL in
		// a threaded process) means the call reached the kernel.
		if err := unix.Unshare(unix.CLONE_NEWUSER); err != unix.EPERM {
			return fmt.Sprintf("reached the kernel (%v)", err), nil
		}
		return "", unix.EPERM
	})
	try("ptrace", func() (string, error) {
		if _, _, errno := unix.RawSyscall(unix.SYS_PTRACE, unix.PTRACE_TRACEME, 0, 0); errno != 0 {
			return "", errno
		}
		return "traced by its parent", nil
	})
	try("host-netns", func() (string, error) {
		here, err := os.Readlink("/proc/self/ns/net")
		if err != nil || here == targets["netns"] {
			return "in the host's " + here, err
		}
		return "", fmt.Errorf("in %s, not the host's %s", here, targets["netns"])
	})
	status := map[string]string{"status": "passed", "summary": "tried"}
	if err := os.WriteFile("escape.txt", []byte(report.String()), 0o644); err != nil {
		status = map[string]string{"status": "error", "summary": err.Error()}
	}
	json.NewEncoder(os.Stdout).Encode(status)
}
