package wasip2

import (
	"io/fs"
	"os"
	"path"
	"strings"
)

// checkLinkTarget is the rule for every symlink a guest places, by
// symlink-at, or by moving or hard-linking an existing one (rename-at,
// link-at): the target is relative and made of normal names only, so it
// resolves below the directory holding the link wherever that directory
// is and wherever the link is moved, and no chain of such links can leave
// the preopen. atRoot says the link lands directly under the preopen's
// root, where a target starting with a hidden name would reach it. The
// RATIONALE.md section "Filesystem confinement" has the argument.
func checkLinkTarget(target string, hide hideSet, atRoot bool) error {
	if target == "" {
		return fsErr(fsNoEntry, "empty symlink target")
	}
	if strings.HasPrefix(target, "/") {
		return fsErr(fsNotPermitted, "a symlink target must be relative")
	}
	parts := splitPath(target)
	for _, c := range parts {
		switch c {
		case "", ".", "..":
			return fsErr(fsNotPermitted, "a symlink target must consist of names only (no '.', '..' or empty components)")
		}
	}
	if atRoot && hide.has(parts[0]) {
		return errHidden
	}
	return nil
}

// linkAtRoot reports whether entry name of dir lands directly in the
// preopen's root, when that matters (the preopen hides names). Only a
// directory that is the root can have such entries; a parent that cannot
// be looked up counts as the root, which can only refuse more.
func (p *preopen) linkAtRoot(dir *os.Root, isRoot bool, name string) bool {
	if !isRoot || len(p.hide) == 0 {
		return false
	}
	parent := path.Dir(strings.TrimRight(name, "/"))
	if parent == "." {
		return true
	}
	fi, err := dir.Stat(parent)
	return err != nil || sameObject(fi, p.rootInfo)
}

// checkMovedLink applies checkLinkTarget to src when it is a symlink
// about to be renamed or hard-linked to dst: what was safe where it was
// must be safe where it goes.
func (p *preopen) checkMovedLink(srcDir *os.Root, src string, dstDir *os.Root, dstIsRoot bool, dst string) error {
	fi, err := srcDir.Lstat(src)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil // the operation itself reports a missing source
	}
	target, err := srcDir.Readlink(src)
	if err != nil {
		return err
	}
	return checkLinkTarget(target, p.hide, p.linkAtRoot(dstDir, dstIsRoot, dst))
}
