package sandbox

import (
	"os"
	"strings"
)

// The host settings that refuse user namespaces, each with what it means
// for mur and what an administrator changes: the probe's raw error
// (fork/exec: no space left on device, operation not permitted) says
// neither.
var usernsSettings = []struct {
	path, off string
	rootToo   bool
	why       string
}{
	{"/proc/sys/user/max_user_namespaces", "0", true,
		"user namespaces are disabled on this host (user.max_user_namespaces is 0); an administrator can enable them with `sysctl -w user.max_user_namespaces=10000`"},
	{"/proc/sys/kernel/unprivileged_userns_clone", "0", false,
		"this kernel lets only root make user namespaces (kernel.unprivileged_userns_clone is 0); an administrator can allow them with `sysctl -w kernel.unprivileged_userns_clone=1`, or mur can run as root"},
	{apparmorSysctl, "1", false,
		"AppArmor takes every capability from a user namespace an unprivileged user makes (kernel.apparmor_restrict_unprivileged_userns is 1), so mur cannot raise its loopback, write its id maps or mount there; an administrator can load an AppArmor profile granting mur `userns`, or set the sysctl to 0"},
}

// usernsDenial says which host setting refuses this uid user namespaces,
// "" when none does (then the probe's own error is all there is).
func usernsDenial() string {
	root := os.Geteuid() == 0
	for _, s := range usernsSettings {
		if root && !s.rootToo {
			continue
		}
		if b, err := os.ReadFile(s.path); err == nil && strings.TrimSpace(string(b)) == s.off {
			return s.why
		}
	}
	return ""
}
