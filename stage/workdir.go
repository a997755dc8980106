package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
		return "", &Error{Code: CodeNotFound, Err: ErrWorkdir,
			Msg:  fmt.Sprintf("workdir '%s' does not exist or is not a directory", dir),
			Hint: "create it first (mkdir -p), or leave out --workdir to get a fresh workdir/<session id> beside murmur.yaml"}
	}
	return dir, nil
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
// back: a failed run leaves no half-staged session behind.
type created struct{ paths []string }

// mkdirAll is os.MkdirAll that remembers the topmost directory it made.
func (c *created) mkdirAll(dir string) error {
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		top = d
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if top != "" {
		c.paths = append(c.paths, top)
	}
	return nil
}

// writeNew writes a file that did not exist before and remembers it.
func (c *created) writeNew(path string, data []byte, perm fs.FileMode) error {
	if err := os.WriteFile(path, data, perm); err != nil {
		return err
	}
	c.paths = append(c.paths, path)
	// WriteFile's mode is filtered by the umask; executables must be 0755.
	return os.Chmod(path, perm)
}

// undo removes everything recorded, newest first.
func (c *created) undo() {
	for i := len(c.paths) - 1; i >= 0; i-- {
		_ = os.RemoveAll(c.paths[i])
	}
}
