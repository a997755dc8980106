package stage

import (
	"os"
	"path/filepath"
	"strings"
)

// beneath reports whether p is dir or lies below it, and the name of p's
// first component under dir ("" when p is dir). Neither need exist. The
// paths are compared as the kernel resolves them: links in the part of
// each that exists expanded, and then every existing ancestor of p
// compared with dir by identity, so neither a link nor a bind mount nor a
// case-insensitive filesystem hides the relation.
func beneath(dir, p string) (first string, ok bool) {
	cd, cp := canonical(dir), canonical(p)
	if rel, err := filepath.Rel(cd, cp); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		if rel == "." {
			return "", true
		}
		first, _, _ = strings.Cut(rel, string(filepath.Separator))
		return first, true
	}
	di, err := os.Stat(cd)
	if err != nil {
		return "", false
	}
	child := ""
	for cur := cp; ; {
		if fi, err := os.Stat(cur); err == nil && os.SameFile(fi, di) {
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
	rest := ""
	for q := p; ; {
		if r, err := filepath.EvalSymlinks(q); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(q)
		if parent == q {
			return p
		}
		rest = filepath.Join(filepath.Base(q), rest)
		q = parent
	}
}
