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
func (h hideSet) reachIn(root *os.Root, p string, follow, create bool) error {
	if len(h) == 0 {
		return nil
	}
	w := &walk{root: root, cur: root}
	defer w.release()
	todo := splitPath(p)
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			w.up()
			continue
		}
		w.at = append(w.at, c)
		if len(w.at) == 1 && h.has(c) {
			if create && onlyDots(todo) {
				return errReserved
			}
			return errHidden
		}
		if w.cur == nil || (len(todo) == 0 && !follow) {
			continue
		}
		fi, err := w.cur.Lstat(c)
		switch {
		case err != nil:
			w.stop()
		case fi.Mode()&fs.ModeSymlink != 0:
			if hops++; hops > maxLinkHops {
				return fsErr(fsLoop, "too many levels of symbolic links")
			}
			target, err := w.cur.Readlink(c)
			if err != nil || strings.HasPrefix(target, "/") {
				// os.Root refuses to follow an absolute link, so nothing
				// below it is reached.
				w.stop()
				continue
			}
			w.at = w.at[:len(w.at)-1]
			todo = append(splitPath(target), todo...)
		case fi.IsDir() && !onlyDots(todo):
			w.down(c)
		default:
			if !onlyDots(todo) {
				w.stop() // the OS will fail on a non-directory in the middle
			}
		}
	}
	return nil
}

// walk is reachIn's position: the resolved components below the root and,
// while they can be looked up, the directory they name (cur), opened one
// level at a time so a path costs one lookup per component.
type walk struct {
	root *os.Root
	cur  *os.Root // nil once a prefix cannot be looked up
	at   []string
}

func (w *walk) release() {
	if w.cur != nil && w.cur != w.root {
		w.cur.Close()
	}
	w.cur = nil
}

// stop continues lexically from here.
func (w *walk) stop() { w.release() }

func (w *walk) down(name string) {
	sub, err := w.cur.OpenRoot(name)
	w.release()
	if err == nil {
		w.cur = sub
	}
}

// up goes to the parent, reopened from the root: ".." of the real
// directory, since symlinks in at were already expanded. Above the root
// stays at the root (os.Root refuses such a path anyway).
func (w *walk) up() {
	if len(w.at) > 0 {
		w.at = w.at[:len(w.at)-1]
	}
	if w.cur == nil {
		return
	}
	w.release()
	if len(w.at) == 0 {
		w.cur = w.root
		return
	}
	if sub, err := w.root.OpenRoot(strings.Join(w.at, "/")); err == nil {
		w.cur = sub
	}
}
