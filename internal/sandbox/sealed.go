package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SealedRoot is what the trampoline composes its root from at the sealed
// tier (security.md §10.3). The parent decides the paths; the child
// opens every source before it covers Base with the root's tmpfs, so a
// source under Base stays reachable and none is looked up twice.
type SealedRoot struct {
	// Base is where the tmpfs root is mounted: the first existing of
	// rootBases that is not an ancestor of the workdir.
	Base string `json:"base"`
	// Workdir is the accessible workdir (canonical), bound read-write at
	// its own path; Home the synthetic HOME the passwd line names.
	Workdir string `json:"workdir"`
	Home    string `json:"home"`
	// Optional are read-only binds skipped when missing (directories of
	// allowlisted binaries and their libraries, interpreter_runtime dirs
	// outside the system directories); Required fail the spawn when
	// missing (staged_runtime trees).
	Optional []string `json:"optional,omitempty"`
	Required []string `json:"required,omitempty"`
}

// The parts of the composed root, as §10.3 lists them.

// rootBases are where the root's tmpfs may go, in order.
func rootBases() []string { return []string{"/tmp", "/run", "/var/tmp", "/mnt", "/media"} }

// SystemDirs are the host's system directories: bound read-only into a
// sealed root (or recreated as the links they are), and where a native
// tool under an advisory floor may run programs from (Scope.SystemExec).
func SystemDirs() []string {
	return []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}
}

// etcFiles and etcDirs are the /etc entries bound from the host;
// passwd and group are the root's own.
func etcFiles() []string {
	return []string{"ld.so.cache", "ld.so.conf", "ca-certificates.conf", "resolv.conf", "hosts", "nsswitch.conf", "localtime", "timezone"}
}

func etcDirs() []string {
	return []string{"ld.so.conf.d", "alternatives", "ssl", "pki", "ca-certificates", "terminfo"}
}

// sealedNodes are the device nodes of the sealed /dev and what Landlock
// grants on each (§9.2).
func sealedNodes() []PathRule {
	return []PathRule{{"/dev/null", ReadFile | WriteFile}, {"/dev/zero", ReadFile | WriteFile}, {"/dev/full", ReadFile | WriteFile},
		{"/dev/tty", ReadFile | WriteFile}, {"/dev/random", ReadFile}, {"/dev/urandom", ReadFile}}
}

// devLinks are the sealed /dev's symlinks: name and target.
func devLinks() [][2]string {
	return [][2]string{{"fd", "/proc/self/fd"}, {"stdin", "/proc/self/fd/0"}, {"stdout", "/proc/self/fd/1"},
		{"stderr", "/proc/self/fd/2"}, {"ptmx", "pts/ptmx"}}
}

// SealedRootPrefix starts every diagnostic of a composed root that could
// not be built; the runtime makes such a failure session-fatal (E-RUN-014).
const SealedRootPrefix = "sealed-root:"

// Directories of the workdir the sealed root is made of: /tmp is bound
// from sealedTmp, /etc/passwd and /etc/group from sealedEtc.
const (
	sealedTmp = ".mur-tmp"
	sealedEtc = ".mur-etc"
)

// ErrSealedHome is wrapped when the synthetic HOME cannot be written into
// a passwd line.
var ErrSealedHome = errors.New("the synthetic HOME cannot be written into /etc/passwd")

// CheckSealedHome refuses a HOME that would break the passwd line the
// sealed root synthesises (§10.3): a ':' or a newline.
func CheckSealedHome(home string) error {
	if strings.ContainsAny(home, ":\n") {
		return fmt.Errorf("%w: %q contains ':' or a newline; use a workdir whose path has neither", ErrSealedHome, home)
	}
	return nil
}

// passwdAndGroup are the synthetic /etc/passwd and /etc/group for uid and
// gid (§10.3): root, and the capsule's user unless that is root.
func passwdAndGroup(uid, gid int, home string) (passwd, group string) {
	passwd = "root:x:0:0:root:/root:/bin/sh\n" + fmt.Sprintf("capsule:x:%d:%d:Murmur capsule:%s:/bin/sh\n", uid, gid, home)
	if uid == 0 {
		passwd = "root:x:0:0:root:" + home + ":/bin/sh\n"
	}
	group = "root:x:0:\n"
	if gid != 0 {
		group += fmt.Sprintf("capsule:x:%d:\n", gid)
	}
	return passwd, group
}

// under reports whether p is dir or beneath it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// sealedRoot is the root plan for s; dirs are the directories the
// allowlisted binaries and their libraries live in.
func (s Scope) sealedRoot(workdir string, dirs []string) *SealedRoot {
	r := &SealedRoot{Workdir: workdir, Home: filepath.Join(workdir, ".capsule-home")}
	for _, b := range rootBases() {
		if fi, err := os.Stat(b); err == nil && fi.IsDir() && !under(workdir, b) {
			r.Base = b
			break
		}
	}
	for _, d := range s.RuntimeDirs {
		dirs = append(dirs, d.Path)
	}
	r.Optional = outside(dirs, workdir)
	r.Required = outside(s.StagedRuntime, workdir)
	return r
}

// outside keeps the paths that no system directory, the workdir or an
// earlier path already covers, canonical where they resolve, sorted.
func outside(paths []string, workdir string) []string {
	var out []string
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		p = filepath.Clean(p)
		if !filepath.IsAbs(p) || p == "/" || under(p, workdir) || slices.ContainsFunc(SystemDirs(), func(d string) bool { return under(p, d) }) {
			continue
		}
		out = append(out, p)
	}
	slices.Sort(out)
	var kept []string
	for _, p := range slices.Compact(out) {
		if !slices.ContainsFunc(kept, func(k string) bool { return under(p, k) }) {
			kept = append(kept, p)
		}
	}
	return kept
}

// sealedRules are the Landlock rules only the sealed tier has (§9.2):
// the system directories and /etc readable, /tmp like the workdir, the
// synthetic passwd and group files, the sealed device set.
func sealedRules(workdirAccess Access) []PathRule {
	var out []PathRule
	for _, d := range SystemDirs() {
		out = append(out, PathRule{d, ReadFile | ReadDir})
	}
	for _, f := range append(etcFiles(), "passwd", "group") {
		out = append(out, PathRule{"/etc/" + f, ReadFile})
	}
	for _, d := range etcDirs() {
		out = append(out, PathRule{"/etc/" + d, ReadFile | ReadDir})
	}
	out = append(out, PathRule{"/tmp", workdirAccess})
	return append(out, sealedNodes()...)
}
