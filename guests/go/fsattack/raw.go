//go:build wasip1

package main

import "unsafe"

// Raw preview1 calls. Go's os package cleans paths lexically before they
// reach WASI ("a/../tools" becomes "tools"); an attacker is not so polite,
// so these pass each path to the host exactly as written.

//go:wasmimport wasi_snapshot_preview1 path_open
//go:noescape
func pathOpen(fd int32, dirflags uint32, path unsafe.Pointer, pathLen uint32, oflags uint32, rightsBase, rightsInheriting uint64, fdflags uint32, newFD unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 path_filestat_get
//go:noescape
func pathFilestatGet(fd int32, flags uint32, path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 path_readlink
//go:noescape
func pathReadlink(fd int32, path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer, bufLen uint32, used unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 path_create_directory
//go:noescape
func pathCreateDirectory(fd int32, path unsafe.Pointer, pathLen uint32) uint32

//go:wasmimport wasi_snapshot_preview1 path_remove_directory
//go:noescape
func pathRemoveDirectory(fd int32, path unsafe.Pointer, pathLen uint32) uint32

//go:wasmimport wasi_snapshot_preview1 path_unlink_file
//go:noescape
func pathUnlinkFile(fd int32, path unsafe.Pointer, pathLen uint32) uint32

//go:wasmimport wasi_snapshot_preview1 path_rename
//go:noescape
func pathRename(fd int32, old unsafe.Pointer, oldLen uint32, newFD int32, new unsafe.Pointer, newLen uint32) uint32

//go:wasmimport wasi_snapshot_preview1 path_symlink
//go:noescape
func pathSymlink(old unsafe.Pointer, oldLen uint32, fd int32, new unsafe.Pointer, newLen uint32) uint32

//go:wasmimport wasi_snapshot_preview1 path_link
//go:noescape
func pathLink(oldFD int32, oldFlags uint32, old unsafe.Pointer, oldLen uint32, newFD int32, new unsafe.Pointer, newLen uint32) uint32

//go:wasmimport wasi_snapshot_preview1 path_filestat_set_times
//go:noescape
func pathFilestatSetTimes(fd int32, flags uint32, path unsafe.Pointer, pathLen uint32, atim, mtim uint64, fstFlags uint32) uint32

//go:wasmimport wasi_snapshot_preview1 fd_readdir
//go:noescape
func fdReaddir(fd int32, buf unsafe.Pointer, bufLen uint32, cookie uint64, used unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 fd_read
//go:noescape
func fdRead(fd int32, iovs unsafe.Pointer, iovsLen uint32, nread unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 fd_close
func fdClose(fd int32) uint32

// str returns a string's bytes for a raw call; empty strings still get a
// valid address.
func str(s string) (unsafe.Pointer, uint32) {
	b := append([]byte(s), 0)
	return unsafe.Pointer(&b[0]), uint32(len(s))
}
