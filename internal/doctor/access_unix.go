//go:build unix

package doctor

import "golang.org/x/sys/unix"

func accessW(dir string) error { return unix.Access(dir, unix.W_OK) }
