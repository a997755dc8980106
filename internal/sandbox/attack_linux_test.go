package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// attackMode makes the test binary the hostile program the escape tests
// run contained: `attack CASE ARGS…` tries one crossing and prints
// "escaped: …" if it got through or "refused: …" with the error if not.
const attackMode = "attack"

// attack runs one case; its output is the verdict, its exit status 0.
func attack(args []string) {
	detail, err := attacks()[args[0]](args[1:])
	if err != nil {
		fmt.Printf("refused: %v\n", err)
	} else {
		fmt.Printf("escaped: %s\n", detail)
	}
	os.Exit(0)
}

func attacks() map[string]func([]string) (string, error) {
	return map[string]func([]string) (string, error){
		"read": func(a []string) (string, error) {
			b, err := os.ReadFile(a[0])
			return fmt.Sprintf("read %q", b), err
		},
		"write": func(a []string) (string, error) {
			return "wrote " + a[0], os.WriteFile(a[0], []byte("pwned"), 0o644)
		},
		"truncate": func(a []string) (string, error) {
			return "truncated " + a[0], os.Truncate(a[0], 0)
		},
		"hardlink": func(a []string) (string, error) {
			if err := os.Link(a[0], a[1]); err != nil {
				return "", err
			}
			b, err := os.ReadFile(a[1])
			return fmt.Sprintf("linked and read %q", b), err
		},
		"symlink": func(a []string) (string, error) {
			if err := os.Symlink(a[0], a[1]); err != nil {
				return "", err
			}
			b, err := os.ReadFile(a[1])
			return fmt.Sprintf("read %q through a link", b), err
		},
		"exec": func(a []string) (string, error) {
			out, err := exec.Command(a[0], a[1:]...).CombinedOutput()
			return fmt.Sprintf("ran %s: %q", a[0], out), err
		},
		"copyexec": func(a []string) (string, error) {
			b, err := os.ReadFile(a[0])
			if err != nil {
				return "", fmt.Errorf("setup: %w", err)
			}
			if err := os.WriteFile(a[1], b, 0o755); err != nil {
				return "", fmt.Errorf("setup: %w", err)
			}
			out, err := exec.Command(a[1], a[2:]...).CombinedOutput()
			return fmt.Sprintf("ran the copy %s: %q", a[1], out), err
		},
		"socket": func(a []string) (string, error) {
			family := map[string]int{"unix": unix.AF_UNIX, "netlink": unix.AF_NETLINK, "packet": unix.AF_PACKET}[a[0]]
			fd, err := unix.Socket(family, unix.SOCK_RAW, 0)
			if a[0] == "unix" {
				fd, err = unix.Socket(family, unix.SOCK_STREAM, 0)
			}
			if err == nil {
				unix.Close(fd)
			}
			return "opened an " + a[0] + " socket", err
		},
		"connect": func(a []string) (string, error) {
			c, err := net.Dial("tcp", a[0])
			if err != nil {
				return "", err
			}
			defer c.Close()
			buf := make([]byte, 64)
			n, err := c.Read(buf)
			return fmt.Sprintf("connected to %s and read %q", a[0], buf[:n]), err
		},
		"syscall": func(a []string) (string, error) { return rawSyscall(a[0]) },
		"privs": func([]string) (string, error) {
			hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
			var data [2]unix.CapUserData
			if err := unix.Capget(&hdr, &data[0]); err != nil {
				return "", err
			}
			if os.Geteuid() == 0 || data[0].Effective != 0 || data[1].Effective != 0 {
				return fmt.Sprintf("euid %d, effective capabilities %#x %#x", os.Geteuid(), data[1].Effective, data[0].Effective), nil
			}
			return "", fmt.Errorf("euid %d, no capabilities", os.Geteuid())
		},
		"forkbomb": func(a []string) (string, error) {
			var procs []*os.Process
			defer func() {
				for _, p := range procs {
					p.Kill()
					p.Wait()
				}
			}()
			self, _ := os.Executable()
			for i := range 400 {
				p, err := os.StartProcess(self, []string{self, attackMode, "sleep"}, &os.ProcAttr{})
				if err != nil {
					return "", fmt.Errorf("stopped after %d processes: %w", i, err)
				}
				procs = append(procs, p)
			}
			return "started 400 processes", nil
		},
		"sleep": func([]string) (string, error) {
			// A bare select{} would be the runtime's deadlock (exit 2)
			// in a process with nothing else to wait on.
			for {
				time.Sleep(time.Hour)
			}
		},
		"whoami": func([]string) (string, error) {
			u, err := user.Current()
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("uid %s user %s home %s", u.Uid, u.Username, u.HomeDir), nil
		},
		"lstat": func(a []string) (string, error) {
			fi, err := os.Lstat(a[0])
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s is %s", a[0], fi.Mode().Type()), nil
		},
		"readdir": func(a []string) (string, error) {
			des, err := os.ReadDir(a[0])
			var names []string
			for _, d := range des {
				names = append(names, d.Name())
			}
			return fmt.Sprintf("listed %v", names), err
		},
		"membomb": func(a []string) (string, error) {
			// Touches up to a[0] MiB of fresh anonymous memory.
			mib, _ := strconv.Atoi(a[0])
			for i := range mib / 16 {
				b, err := unix.Mmap(-1, 0, 16<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
				if err != nil {
					return "", fmt.Errorf("mmap after %d MiB: %w", i*16, err)
				}
				for j := 0; j < len(b); j += 4096 {
					b[j] = 1
				}
			}
			return fmt.Sprintf("touched %d MiB", mib), nil
		},
		"cpuspin": func(a []string) (string, error) {
			// Spins until it has used a[0] seconds of CPU.
			secs, _ := strconv.Atoi(a[0])
			for {
				var ru unix.Rusage
				if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
					return "", err
				}
				if time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) >= time.Duration(secs)*time.Second {
					return fmt.Sprintf("spun %d s of CPU", secs), nil
				}
			}
		},
	}
}

// rawSyscall tries a syscall the policy denies; reaching the kernel at
// all (any result but EPERM) is an escape.
func rawSyscall(name string) (string, error) {
	var errno syscall.Errno
	switch name {
	case "ptrace":
		_, _, errno = unix.RawSyscall(unix.SYS_PTRACE, unix.PTRACE_TRACEME, 0, 0)
	case "mount":
		dir, err := os.MkdirTemp("", "mnt")
		if err != nil {
			dir = "."
		}
		if err := unix.Mount("none", dir, "tmpfs", 0, ""); err == nil {
			unix.Unmount(dir, 0)
			return "mounted a tmpfs", nil
		} else {
			errno = err.(syscall.Errno)
		}
	case "unshare":
		_, _, errno = unix.RawSyscall(unix.SYS_UNSHARE, unix.CLONE_NEWUSER, 0, 0)
	case "keyctl":
		_, _, errno = unix.RawSyscall(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, 0xfffffffd /* KEY_SPEC_SESSION_KEYRING */, 0)
	case "bpf":
		var attr [128]byte
		_, _, errno = unix.RawSyscall(unix.SYS_BPF, unix.BPF_PROG_LOAD, uintptr(unsafe.Pointer(&attr[0])), unsafe.Sizeof(attr))
	case "io_uring":
		var params [120]byte
		_, _, errno = unix.RawSyscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
	default:
		return "", fmt.Errorf("unknown syscall case %s", name)
	}
	if errno == unix.EPERM {
		return "", errno
	}
	return fmt.Sprintf("%s reached the kernel (errno %d: %v)", name, errno, errno), nil
}
