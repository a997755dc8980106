//go:build wasip1

// Command fsattack is the hostile guest of the WASI filesystem boundary's
// tests: a reactor like wasitest (abi.go) whose run input is a list of
// commands separated by ";", each acting on the first preopened directory
// (descriptor 3) with raw preview1 calls, so paths reach the host exactly
// as spelled. Each command prints one line: "ok", a result, or
// "errno=NAME".
//
//	open PATH [r|w|create|dir|nofollow]  open and close
//	read PATH                            open, read, print the content
//	stat PATH | lstat PATH | readlink PATH
//	mkdir PATH | rmdir PATH | unlink PATH | utimes PATH
//	lutimes PATH                         set both times to 1e9 s, not following a final symlink
//	rename OLD NEW | link OLD NEW | symlink TARGET NEW
//	ls PATH                              entry names, sorted, without . and ..
//	hold N PATH                          open PATH N times, closing none
package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// main is required of package main even in c-shared mode, where it never runs.
func main() {}

const (
	dirFD         = 3 // the first preopen, as the adapter numbers them
	lookupFollow  = 1
	oCreate       = 1
	oDirectory    = 2
	rightRead     = 1<<1 | 1<<14 // fd_read, fd_readdir
	rightWrite    = 1 << 6
	fstATime      = 1 << 0
	fstATimeNow   = 1 << 1
	fstMTime      = 1 << 2
	fstMTimeNow   = 1 << 3
	lutimesNanos  = 1e9 * 1e9 // 2001-09-09, easy to spot in a stat
	readdirBuffer = 64 << 10
)

func do(words []string) {
	var cmd []string
	for _, w := range append(words, ";") {
		if w != ";" {
			cmd = append(cmd, w)
			continue
		}
		if len(cmd) > 0 {
			fmt.Println(one(cmd))
		}
		cmd = nil
	}
}

func one(cmd []string) string {
	arg := func(i int) string {
		if i < len(cmd) {
			return cmd[i]
		}
		return ""
	}
	p, n := str(arg(1))
	q, m := str(arg(2))
	var e uint32
	switch cmd[0] {
	case "open":
		fd, e := open(arg(1), arg(2))
		if e == 0 {
			fdClose(fd)
		}
		return result(e)
	case "read":
		return read(arg(1))
	case "stat", "lstat":
		var flags uint32
		if cmd[0] == "stat" {
			flags = lookupFollow
		}
		var st [64]byte
		e = pathFilestatGet(dirFD, flags, p, n, unsafe.Pointer(&st))
	case "readlink":
		buf := make([]byte, 4096)
		var used uint32
		if e = pathReadlink(dirFD, p, n, unsafe.Pointer(&buf[0]), uint32(len(buf)), unsafe.Pointer(&used)); e == 0 {
			return "link=" + string(buf[:used])
		}
	case "mkdir":
		e = pathCreateDirectory(dirFD, p, n)
	case "rmdir":
		e = pathRemoveDirectory(dirFD, p, n)
	case "unlink":
		e = pathUnlinkFile(dirFD, p, n)
	case "utimes":
		e = pathFilestatSetTimes(dirFD, lookupFollow, p, n, 0, 0, fstATimeNow|fstMTimeNow)
	case "lutimes":
		e = pathFilestatSetTimes(dirFD, 0, p, n, lutimesNanos, lutimesNanos, fstATime|fstMTime)
	case "rename":
		e = pathRename(dirFD, p, n, dirFD, q, m)
	case "link":
		e = pathLink(dirFD, 0, p, n, dirFD, q, m)
	case "symlink":
		e = pathSymlink(p, n, dirFD, q, m)
	case "ls":
		return ls(arg(1))
	case "hold":
		count, _ := strconv.Atoi(arg(1))
		held := 0
		for ; held < count; held++ {
			if _, e = open(arg(2), "r"); e != 0 {
				break
			}
		}
		return fmt.Sprintf("held=%d %s", held, result(e))
	default:
		return "err=unknown command " + cmd[0]
	}
	return result(e)
}

// open opens path under the preopen; how is r (default), w, create, dir
// or nofollow.
func open(path, how string) (int32, uint32) {
	p, n := str(path)
	lookup, oflags, rights := uint32(lookupFollow), uint32(0), uint64(rightRead)
	switch how {
	case "w":
		rights = rightWrite
	case "create":
		oflags, rights = oCreate, rightWrite
	case "dir":
		oflags = oDirectory
	case "nofollow":
		lookup = 0
	}
	var fd int32
	e := pathOpen(dirFD, lookup, p, n, oflags, rights, rights, 0, unsafe.Pointer(&fd))
	return fd, e
}

func read(path string) string {
	fd, e := open(path, "r")
	if e != 0 {
		return result(e)
	}
	defer fdClose(fd)
	buf := make([]byte, 4096)
	iov := [2]uint32{uint32(uintptr(unsafe.Pointer(&buf[0]))), uint32(len(buf))}
	var got uint32
	if e := fdRead(fd, unsafe.Pointer(&iov), 1, unsafe.Pointer(&got)); e != 0 {
		return result(e)
	}
	return "content=" + string(buf[:got])
}

func ls(path string) string {
	fd, e := open(path, "dir")
	if e != 0 {
		return result(e)
	}
	defer fdClose(fd)
	buf := make([]byte, readdirBuffer)
	var used uint32
	if e := fdReaddir(fd, unsafe.Pointer(&buf[0]), uint32(len(buf)), 0, unsafe.Pointer(&used)); e != 0 {
		return result(e)
	}
	var names []string
	// Each dirent: d_next u64, d_ino u64, d_namlen u32, d_type u8, padding
	// to 24 bytes, then the name.
	for b := buf[:used]; len(b) >= 24; {
		nl := int(uint32(b[16]) | uint32(b[17])<<8 | uint32(b[18])<<16 | uint32(b[19])<<24)
		if len(b) < 24+nl {
			break
		}
		if name := string(b[24 : 24+nl]); name != "." && name != ".." {
			names = append(names, name)
		}
		b = b[24+nl:]
	}
	sort.Strings(names)
	return "entries=" + strings.Join(names, ",")
}

func result(e uint32) string {
	if e == 0 {
		return "ok"
	}
	if name, ok := errnoNames[syscall.Errno(e)]; ok {
		return "errno=" + name
	}
	return fmt.Sprintf("errno=%d", e)
}

var errnoNames = map[syscall.Errno]string{
	syscall.EACCES: "EACCES", syscall.EBADF: "EBADF", syscall.EBUSY: "EBUSY", syscall.EEXIST: "EEXIST",
	syscall.EINVAL: "EINVAL", syscall.EIO: "EIO", syscall.EISDIR: "EISDIR",
	syscall.ELOOP: "ELOOP", syscall.EMFILE: "EMFILE", syscall.ENFILE: "ENFILE",
	syscall.ENOENT: "ENOENT", syscall.ENOTDIR: "ENOTDIR", syscall.ENOTEMPTY: "ENOTEMPTY",
	syscall.ENOTSUP: "ENOTSUP", syscall.ENXIO: "ENXIO", syscall.EPERM: "EPERM",
	syscall.EROFS: "EROFS", syscall.EXDEV: "EXDEV", syscall.ENOTCAPABLE: "ENOTCAPABLE",
}
