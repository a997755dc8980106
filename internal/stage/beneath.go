package stage

import (
	"os"
	"path/filepath"
	"strings"
)

// anchor is a directory resolved once, to test many paths against it.
type anchor struct {
	path string      // canonical
	fi   os.FileInfo // nil when it does not exist
}

func anchorAt(dir string) anchor {
	a := anchor{path: canonical(dir)}
	if fi, err := os.Stat(a.path); err == nil {
		a.fi = fi
	}
	return a
}

// beneath reports whether p is dir or lies below it, and the name of p's
// first component under dir ("" when p is dir). Neither need exist.
func beneath(dir, p string) (first string, ok bool) { return anchorAt(dir).holds(p) }

// holds is beneath for the anchored directory. The paths are compared as
// the kernel resolves them: links in the part of each that exists
// expanded, and then every existing ancestor of p compared with the
// directory by identity, so neither a link nor a bind mount nor a
// case-insensitive filesystem hides the relation.
func (a anchor) holds(p string) (first string, ok bool) {
	cp := canonical(p)
	if rel, err := filepath.Rel(a.path, cp); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		if rel == "." {
			return "", true
		}
		first, _, _ = strings.Cut(rel, string(filepath.Separator))
		return first, true
	}
	if a.fi == nil {
		return "", false
	}
	child := ""
	for cur := cp; ; {
		if fi, err := os.Stat(cur); err == nil && os.SameFile(fi, a.fi) {
			return child, true
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", false
		}
		child, cur = filepath.Base(cur), parent
	}
}

// canonical is p made absolute with the links of its longest existing
// prefix expanded; the part that does not exist yet is kept as written.
func canonical(p string) string {
	p, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	q, rest := p, ""
	for {
		if _, err := os.Lstat(q); err == nil {
			break
		}
		parent := filepath.Dir(q)
		if parent == q {
			return p
		}
		rest = filepath.Join(filepath.Base(q), rest)
		q = parent
	}
	r, err := filepath.EvalSymlinks(q)
	if err != nil {
		return p
	}
	return filepath.Join(r, rest)
}
