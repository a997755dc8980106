package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// noexecWorkdir is the scoped tier's step after the network namespace
// (§9.4): in this process's private mount namespace the workdir is bound
// onto itself noexec, nosuid and nodev. Landlock's missing Execute right
// stops execve there, but not an allowlisted ELF loader mapping a binary
// the capsule wrote with PROT_EXEC; the mount flag stops both, as the
// sealed root's workdir bind does. An empty dir does nothing.
func noexecWorkdir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := bindNoexec(dir); err != nil {
		return fmt.Errorf("mounting the workdir noexec: %w", err)
	}
	return nil
}

func bindNoexec(dir string) error {
	// The kernel's path, not $PWD: a PWD of /proc/self/cwd would
	// re-enter the directory beneath the mount.
	cwd, err := unix.Getwd()
	if err != nil {
		return fmt.Errorf("reading the working directory: %w", err)
	}
	if err := privateMounts(); err != nil {
		return err
	}
	// Opened by path, as the sealed root's workdir bind is: the runtime
	// chose it, canonical, and the capsule cannot replace it.
	fd, err := openSource(dir)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := bind(fd, fd, writableAttrs); err != nil {
		return fmt.Errorf("binding %s onto itself: %w", dir, err)
	}
	// The working directory still lies beneath the new mount; entering it
	// again by path goes through it, so "./binary" is noexec too.
	if err := unix.Chdir(cwd); err != nil {
		return fmt.Errorf("re-entering %s: %w", cwd, err)
	}
	return nil
}

// privateMounts stops every mount this namespace makes from propagating
// back to the runtime's.
func privateMounts() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mount namespace private: %w", err)
	}
	return nil
}
