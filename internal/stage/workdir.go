package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/diag"
)

// dirs are the two workdirs of session.md §7.1, decided before anything
// is created.
type dirs struct {
	accessible, session string
	user                bool
}

// userWorkdir checks --workdir up front: it must already be a directory
// (relative paths start at cwd). Checked before any store is read so a
// typo costs nothing.
func userWorkdir(dir, cwd string) (string, error) {
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return "", &diag.Error{Code: CodeNotFound, Err: ErrWorkdir,
			Msg:  fmt.Sprintf("workdir '%s' does not exist or is not a directory", dir),
			Hint: "create it first (mkdir -p), or leave out --workdir to get a fresh workdir/<session id> beside murmur.yaml"}
	}
	return dir, nil
}

// CheckWorkdir refuses a --workdir that is not an existing directory
// (relative to the process's working directory), as Stage does, for a
// caller that checks its command line before anything else.
func CheckWorkdir(dir string) error {
	_, err := userWorkdir(dir, "")
	return err
}

// layout places the session: <project>/workdir/<id> for both roles, or
// the user's dir as the accessible workdir with the bookkeeping in
// DIR/.murmur/<id>.
func layout(projectDir, userDir, id string) dirs {
	if userDir == "" {
		d := filepath.Join(projectDir, "workdir", id)
		return dirs{accessible: d, session: d}
	}
	return dirs{accessible: userDir, session: filepath.Join(userDir, ".murmur", id), user: true}
}

// created records what Stage made so a failure part-way can take it all
// back: a failed run leaves no half-staged session behind. paths are
// what staging made and removes whole; parents the directories it made
// above them (the <project>/workdir of a first run), removed only while
// empty, so a session another run started in them meanwhile stays.
type created struct{ paths, parents []string }

// mkdirAll is os.MkdirAll that remembers dir and the parents it made.
func (c *created) mkdirAll(dir string) error {
	var made []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	c.record(made)
	return nil
}

// mkdirIn creates the directory rel (and its parents) inside root and
// remembers what it made.
func (c *created) mkdirIn(root *os.Root, rel string) error {
	var made []string
	for d := rel; d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if _, err := root.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		made = append(made, filepath.Join(root.Name(), d))
	}
	if err := root.MkdirAll(rel, 0o755); err != nil {
		return err
	}
	c.record(made)
	return nil
}

// record takes the directories a mkdir made, deepest first: the deepest
// is staging's own, the rest parents.
func (c *created) record(made []string) {
	if len(made) == 0 {
		return
	}
	c.paths = append(c.paths, made[0])
	c.parents = append(c.parents, made[1:]...)
}

// writeNew writes a file under root that must not exist yet (a planted
// file or link makes it fail rather than be followed), with exactly perm,
// and remembers it.
func (c *created) writeNew(root *os.Root, rel string, data []byte, perm fs.FileMode) error {
	if err := confined.WriteFile(root, rel, data, perm, os.O_CREATE|os.O_EXCL); err != nil {
		return err
	}
	c.paths = append(c.paths, filepath.Join(root.Name(), rel))
	return nil
}

// undo removes everything recorded, newest first, then the parents that
// are left empty.
func (c *created) undo() {
	for i := len(c.paths) - 1; i >= 0; i-- {
		_ = os.RemoveAll(c.paths[i])
	}
	// Deepest first, so a parent is empty by the time its turn comes.
	slices.SortFunc(c.parents, func(a, b string) int { return len(b) - len(a) })
	for _, p := range c.parents {
		_ = os.Remove(p)
	}
	c.paths, c.parents = nil, nil
}
