package sandbox

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// step is one entry of the composed root at its absolute path.
type step struct {
	target string
	// One of: src (bind it, with attrs; or path, opened when the step
	// is applied, missing = skipped unless required), link (a symlink
	// with this text), tmpfs (a fresh tmpfs with these options), proc (a
	// procfs, or the host's bound when none can be mounted).
	src      int
	path     string
	required bool
	attrs    uint64
	file     bool
	link     string
	tmpfs    string
	proc     bool
}

// buildSealedRoot composes r's root in this process's private mount
// namespace and pivots into it (security.md §10.3), in the child, after
// the network namespace and before the fd hygiene step. Every error is
// reported with SealedRootPrefix. A nil r (any other tier) does nothing.
func buildSealedRoot(r *SealedRoot) error {
	if r == nil {
		return nil
	}
	if err := composeRoot(r); err != nil {
		return fmt.Errorf("%s %w", SealedRootPrefix, err)
	}
	return nil
}

func composeRoot(r *SealedRoot) error {
	if r.Base == "" {
		return fmt.Errorf("none of %v exists outside the workdir to mount the root's tmpfs on", rootBases())
	}
	if err := CheckSealedHome(r.Home); err != nil {
		return err
	}
	if err := privateMounts(); err != nil {
		return err
	}
	steps, err := rootSteps(r)
	defer func() {
		for _, s := range steps {
			if s.src > 0 {
				unix.Close(s.src)
			}
		}
	}()
	if err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", r.Base, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=4m"); err != nil {
		return fmt.Errorf("mounting the root tmpfs on %s: %w", r.Base, err)
	}
	root, err := unix.Open(r.Base, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("opening the root tmpfs: %w", err)
	}
	defer unix.Close(root)
	for i := range steps {
		if err := steps[i].apply(root); err != nil {
			return fmt.Errorf("%s: %w", steps[i].target, err)
		}
	}
	return pivot(root, r.Workdir)
}

// rootSteps lists the root's entries, sorted so that a directory comes
// before what is mounted inside it, with the sources that lie under Base
// (which its tmpfs will cover) and those of the workdir already open.
func rootSteps(r *SealedRoot) ([]step, error) {
	var steps []step
	// A source under Base is opened now, before the root's tmpfs covers
	// it; any other when its step is applied, so the root holds few
	// descriptors at a time under a small max_open_files.
	host := func(path, target string, attrs uint64, required bool) error {
		var st unix.Stat_t
		if err := unix.Stat(path, &st); err != nil {
			if required {
				return fmt.Errorf("a required bind is missing: %w", &os.PathError{Op: "open", Path: path, Err: err})
			}
			return nil
		}
		s := step{target: target, path: path, required: required, attrs: attrs, file: st.Mode&unix.S_IFMT != unix.S_IFDIR}
		if under(path, r.Base) {
			fd, err := openSource(path)
			if err != nil {
				return err
			}
			s.src, s.path = fd, ""
		}
		steps = append(steps, s)
		return nil
	}
	for _, d := range SystemDirs() {
		if link, err := os.Readlink(d); err == nil {
			steps = append(steps, step{target: d, link: link}) // usrmerge: /bin -> usr/bin
			continue
		}
		if err := host(d, d, bindAttrs, false); err != nil {
			return steps, err
		}
	}
	for _, d := range r.Optional {
		if err := host(d, d, bindAttrs, false); err != nil {
			return steps, err
		}
	}
	for _, d := range r.Required {
		if err := host(d, d, bindAttrs, true); err != nil {
			return steps, fmt.Errorf("staged_runtime source %s: %w", d, err)
		}
	}
	for _, e := range append(etcFiles(), etcDirs()...) {
		if err := host("/etc/"+e, "/etc/"+e, bindAttrs, false); err != nil {
			return steps, err
		}
	}
	ws, err := workdirSteps(r)
	steps = append(steps, ws...)
	if err != nil {
		return steps, err
	}
	steps = append(steps, step{target: "/dev", tmpfs: "mode=0755,size=64k"})
	for _, n := range sealedNodes() {
		if err := host(n.Path, n.Path, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NOEXEC, false); err != nil {
			return steps, err
		}
	}
	for _, l := range devLinks() {
		steps = append(steps, step{target: "/dev/" + l[0], link: l[1]})
	}
	steps = append(steps, step{target: "/proc", path: "/proc", required: true, proc: true})
	slices.SortStableFunc(steps, func(a, b step) int { return strings.Compare(a.target, b.target) })
	return steps, nil
}

// workdirSteps are the workdir (read-write at its own path), /tmp from
// its .mur-tmp, and the synthetic /etc/passwd and /etc/group written to
// its .mur-etc.
func workdirSteps(r *SealedRoot) ([]step, error) {
	wd, err := unix.Open(r.Workdir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the workdir: %w", &os.PathError{Op: "open", Path: r.Workdir, Err: err})
	}
	defer unix.Close(wd)
	// The workdir itself is bound by path: the runtime chose it and the
	// capsule cannot replace it (its parent is not the capsule's). It
	// and /tmp are noexec: Landlock's missing Execute stops execve
	// there, but not the allowlisted ELF loader mapping a binary the
	// capsule wrote.
	steps := []step{{target: r.Workdir, path: r.Workdir, required: true, attrs: writableAttrs}}
	tmp, err := workdirDir(wd, sealedTmp)
	if err != nil {
		return steps, err
	}
	steps = append(steps, step{target: "/tmp", src: tmp, attrs: writableAttrs})
	etc, err := workdirDir(wd, sealedEtc)
	if err != nil {
		return steps, err
	}
	defer unix.Close(etc)
	passwd, group := passwdAndGroup(os.Getuid(), os.Getgid(), r.Home)
	for _, f := range [][2]string{{"passwd", passwd}, {"group", group}} {
		fd, err := writeFresh(etc, f[0], f[1])
		if err != nil {
			return steps, fmt.Errorf("the synthetic /etc/%s: %w", f[0], err)
		}
		steps = append(steps, step{target: "/etc/" + f[0], src: fd, attrs: bindAttrs, file: true})
	}
	return steps, nil
}

func (s *step) apply(root int) error {
	rel := s.target[1:]
	if s.link != "" {
		if err := unix.Symlinkat(s.link, root, rel); err != nil {
			return fmt.Errorf("symlink: %w", err)
		}
		return nil
	}
	if s.path != "" {
		fd, err := openSource(s.path)
		switch {
		case err != nil && s.required:
			return fmt.Errorf("a required bind is missing: %w", err)
		case err != nil:
			return nil
		}
		s.src = fd
	}
	if s.src > 0 {
		defer func() { unix.Close(s.src); s.src = 0 }()
	}
	target, err := mountpoint(root, s.target, s.file)
	if err != nil {
		return err
	}
	defer unix.Close(target)
	switch {
	case s.tmpfs != "":
		err = unix.Mount("tmpfs", fdPath(target), "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, s.tmpfs)
	case s.proc:
		err = procfs(target, s.src)
	default:
		err = bind(s.src, target, s.attrs)
	}
	return err
}

// procfs mounts a private procfs hiding other users' processes where the
// kernel allows it (it does not in a user namespace without a PID
// namespace of its own), else binds the host's /proc read-only; Landlock
// grants nothing under it either way.
func procfs(target, host int) error {
	for _, opts := range []string{"hidepid=2", "hidepid=invisible", ""} {
		if unix.Mount("proc", fdPath(target), "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, opts) == nil {
			return nil
		}
	}
	return bind(host, target, bindAttrs|unix.MOUNT_ATTR_NOEXEC)
}

// pivot makes root the process's root, detaches the old one, makes the
// root read-only and enters the workdir.
func pivot(root int, workdir string) error {
	if err := unix.Fchdir(root); err != nil {
		return fmt.Errorf("entering the root: %w", err)
	}
	// pivot_root(".", ".") stacks the old root on the new one; detaching
	// it leaves the new root alone, with no put_old directory.
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the old root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("making the root read-only: %w", err)
	}
	if err := unix.Chdir(workdir); err != nil {
		return fmt.Errorf("entering the workdir: %w", err)
	}
	return nil
}
