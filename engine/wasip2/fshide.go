package wasip2

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// maxLinkHops bounds symlink expansion while checking a path, as the
// kernel's ELOOP limit does.
const maxLinkHops = 40

var (
	errHidden   = fsErr(fsNoEntry, "no such file or directory")
	errReserved = fsErr(fsAccess, "the name is reserved by the runtime")
)

// hideSet is a preopen's DirGrant.Hide, checked without regard to case so a
// case-insensitive filesystem cannot reach "tools" as "TOOLS".
type hideSet []string

// newHideSet validates Hide: each entry is one name ("tools/" may say it
// is a directory).
func newHideSet(names []string) (hideSet, error) {
	h := make(hideSet, 0, len(names))
	for _, n := range names {
		name := strings.TrimRight(n, "/")
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
			return nil, fmt.Errorf("hidden entry %q: want one name directly under the directory", n)
		}
		h = append(h, name)
	}
	return h, nil
}

func (h hideSet) has(name string) bool {
	for _, n := range h {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// splitPath splits a guest path into its components, keeping empty and
// "." ones (a trailing slash matters to whether a final link is followed).
func splitPath(p string) []string { return strings.Split(p, "/") }

// onlyDots reports whether the components left name nothing further.
func onlyDots(rest []string) bool {
	for _, c := range rest {
		if c != "" && c != "." {
			return false
		}
	}
	return true
}

// reachIn refuses p, relative to root (the preopen's root directory),
// when it resolves to or through a hidden entry. It resolves the way the
// kernel and os.Root will: component by component, expanding symlinks
// before the ".." that follow them; follow says whether a final symlink
// is expanded. Once a prefix cannot be looked up (it does not exist yet)
// the rest is checked lexically, which can only refuse more. create
// marks operations that make an entry at p: a hidden final name is then
// access (it is reserved whether or not it exists), otherwise no-entry.
//
// Each prefix is looked up from the root with Lstat, which opens only
// directories (O_DIRECTORY) on the way, so no FIFO can block it and no
// descriptor is held between steps; paths are short, so the repeated
// walk costs about as much as keeping directories open would.
func (h hideSet) reachIn(root *os.Root, p string, follow, create bool) error {
	if len(h) == 0 {
		return nil
	}
	todo := splitPath(p)
	var at []string // resolved components below root
	looking, hops := true, 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(at) > 0 {
				at = at[:len(at)-1]
			}
			continue
		}
		at = append(at, c)
		if len(at) == 1 && h.has(c) {
			if create && onlyDots(todo) {
				return errReserved
			}
			return errHidden
		}
		if !looking || (len(todo) == 0 && !follow) {
			continue
		}
		cur := strings.Join(at, "/")
		fi, err := root.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			looking = err == nil
			continue
		}
		if hops++; hops > maxLinkHops {
			return fsErr(fsLoop, "too many levels of symbolic links")
		}
		target, err := root.Readlink(cur)
		if err != nil || strings.HasPrefix(target, "/") {
			// os.Root refuses to follow an absolute link, so nothing
			// below it is reached.
			looking = false
			continue
		}
		at = at[:len(at)-1]
		todo = append(splitPath(target), todo...)
	}
	return nil
}
