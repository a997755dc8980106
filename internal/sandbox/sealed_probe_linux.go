package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/mur-go/mur/internal/policy"
)

// apparmorSysctl is set to 1 where AppArmor restricts unprivileged user
// namespaces (Ubuntu 23.10 on): only a profile such as mur-sealed then
// lets mur's children create one with capabilities in it.
const apparmorSysctl = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"

func apparmorRestrictsUserns() bool {
	b, err := os.ReadFile(apparmorSysctl)
	return err == nil && strings.TrimSpace(string(b)) == "1"
}

// sealedInputs is what the sealed probe saw: the error starting the
// child in its user, network and mount namespace (nil: it ran), what it
// reported, whether Landlock is enforced and AppArmor restricts user
// namespaces; idMapOnly tries the clone without id maps, to tell a
// refused clone from a refused map.
type sealedInputs struct {
	startErr  error
	out       probeResult
	landlock  bool
	apparmor  bool
	idMapOnly func() bool
}

// sealedOutcome decides the sealed probe (§9.1, §10.2): sealed, or the
// SealedBlocker in its precedence (AppArmor, then the namespace outcome,
// then Landlock; NotLinux never reaches here) and the error seen.
func sealedOutcome(in sealedInputs) (ok bool, blocker, detail string) {
	failed, detail := in.startErr != nil, ""
	if failed {
		detail = in.startErr.Error()
	} else if !in.out.Sealed {
		failed, detail = true, in.out.SealedErr
	}
	switch {
	case failed && in.apparmor:
		return false, policy.BlockerAppArmor, detail
	case in.startErr != nil && in.idMapOnly():
		return false, policy.BlockerIDMapDenied, detail
	case in.startErr != nil && kernelLacks(in.startErr):
		return false, policy.BlockerKernel, detail
	case in.startErr != nil:
		return false, policy.BlockerNamespaceDenied, detail
	case failed && in.out.SealedKernel:
		return false, policy.BlockerKernel, detail
	case failed:
		return false, policy.BlockerMountDenied, detail
	case !in.landlock:
		return true, policy.BlockerLandlockMissing, ""
	}
	return true, "", ""
}

// kernelLacks reports a clone refused for want of kernel support
// (CONFIG_USER_NS off, the namespace type unknown) rather than policy.
func kernelLacks(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSYS)
}

// errNotSealed is what a probe child reports when it finds itself
// without the mount namespace it was cloned for.
var errNotSealed = errors.New("not in a mount namespace of its own")

// mountProbe is the sealed probe's test (§9.1): in the new user and
// mount namespace, make the tree private, mount a tmpfs and clone a
// mount tree with a read-only attribute, as the composed root will.
func mountProbe(hostMntNS string) error {
	if here, err := os.Readlink("/proc/self/ns/mnt"); err != nil || here == hostMntNS {
		return errNotSealed
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mount namespace private: %w", err)
	}
	base := ""
	for _, b := range rootBases() {
		if fi, err := os.Stat(b); err == nil && fi.IsDir() {
			base = b
			break
		}
	}
	if base == "" {
		return fmt.Errorf("none of %v exists", rootBases())
	}
	if err := unix.Mount("tmpfs", base, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64k"); err != nil {
		return fmt.Errorf("mounting a tmpfs: %w", err)
	}
	src, err := openSource("/usr")
	if err != nil {
		return err
	}
	defer unix.Close(src)
	target, err := unix.Open(base, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(target)
	return bind(src, target, bindAttrs)
}
