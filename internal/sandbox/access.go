package sandbox

import "strings"

// Access is a set of Landlock filesystem rights, in the kernel's bit
// order (LANDLOCK_ACCESS_FS_*).
type Access uint64

// The rights a rule can grant.
const (
	Execute Access = 1 << iota
	WriteFile
	ReadFile
	ReadDir
	RemoveDir
	RemoveFile
	MakeChar
	MakeDir
	MakeReg
	MakeSock
	MakeFifo
	MakeBlock
	MakeSym
	Refer    // ABI 2: link and rename across directories
	Truncate // ABI 3
)

// abiRights are the rights each Landlock ABI can handle; rights of later
// ABIs that mur does not grant (ioctl on devices, unix-socket resolution)
// are left unhandled rather than refused by a ruleset it cannot fill.
func abiRights(abi int) Access {
	switch {
	case abi >= 3:
		return Truncate<<1 - 1
	case abi == 2:
		return Refer<<1 - 1
	case abi == 1:
		return MakeSym<<1 - 1
	}
	return 0
}

// WorkdirAccess is what the accessible workdir grants (§9.2): everything
// but creating device nodes and sockets, and Execute only with
// capabilities.filesystem.workdir_exec.
func WorkdirAccess(exec bool) Access {
	a := WriteFile | ReadFile | ReadDir | RemoveDir | RemoveFile | MakeDir | MakeReg | MakeFifo | MakeSym | Refer | Truncate
	if exec {
		a |= Execute
	}
	return a
}

var accessNames = []string{"execute", "write_file", "read_file", "read_dir", "remove_dir", "remove_file",
	"make_char", "make_dir", "make_reg", "make_sock", "make_fifo", "make_block", "make_sym", "refer", "truncate"}

// String lists the rights by their Landlock names, for --explain-scope.
func (a Access) String() string {
	var out []string
	for i, n := range accessNames {
		if a&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}
