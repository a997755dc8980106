//go:build unix

package wasip2

import (
	"os"

	"golang.org/x/sys/unix"
)

// renameIn renames oldp to newp, both under root, with renameat(2) on
// their parent directories: os.Root.Rename refuses every existing
// directory as the target, where POSIX and WASI replace an empty one (and
// answer not-empty, is-directory or not-directory otherwise). The parents
// are opened through root, so they are confined like any lookup; the
// kernel then acts on the two names without following either.
func renameIn(root *os.Root, oldp, newp string) error {
	op, on, oslash, ok := lastName(oldp)
	np, nn, nslash, ok2 := lastName(newp)
	if !ok || !ok2 {
		return fsErr(fsBusy, "cannot rename . or ..")
	}
	od, err := openParent(root, op)
	if err != nil {
		return err
	}
	defer od.Close()
	nd, err := openParent(root, np)
	if err != nil {
		return err
	}
	defer nd.Close()
	// A trailing slash stays on the name: the kernel then requires a
	// directory, and rename follows no link either way.
	if oslash {
		on += "/"
	}
	if nslash {
		nn += "/"
	}
	if err := unix.Renameat(int(od.Fd()), on, int(nd.Fd()), nn); err != nil {
		return &os.LinkError{Op: "renameat", Old: oldp, New: newp, Err: err}
	}
	return nil
}
