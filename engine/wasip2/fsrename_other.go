//go:build !unix

package wasip2

import "os"

// renameIn is os.Root.Rename where there is no renameat(2): an existing
// directory as the target is refused (exist).
func renameIn(root *os.Root, oldp, newp string) error { return root.Rename(oldp, newp) }
