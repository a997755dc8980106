package confined

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Dir is a directory opened once for many accesses to its files, as a
// served capsule reads and writes task.md at every task: a file directly
// in it is opened relative to the directory kept open, where the package
// functions open the directory again for each access (an open, a poller
// registration attempt and a close of a directory, the costliest of a
// task's file syscalls). The kept descriptor is the root's own directory,
// as opening "." through the root gives each time, so the confinement
// and the refusals are the package functions'.
type Dir struct{ at }

// OpenDir opens path as a Dir.
func OpenDir(path string) (*Dir, error) {
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	dir, err := openDir(root, ".")
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return &Dir{at{root: root, dir: dir}}, nil
}

// Root is the directory as an os.Root, for what the Dir does not do.
func (d *Dir) Root() *os.Root { return d.root }

// Close releases the directory.
func (d *Dir) Close() error { return errors.Join(d.dir.Close(), d.root.Close()) }

// OpenFile is the package's OpenFile in d.
func (d *Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, _, err := d.openFile(name, flag, perm)
	return f, err
}

// WriteFile is the package's WriteFile in d.
func (d *Dir) WriteFile(name string, data []byte, perm fs.FileMode, flag int) error {
	return d.writeFile(name, data, perm, flag)
}

// ReadFile is the package's ReadFile in d.
func (d *Dir) ReadFile(name string) ([]byte, error) { return d.readFile(name) }

// Replace is the package's Replace in d.
func (d *Dir) Replace(name string, data []byte, perm fs.FileMode) error {
	return d.replace(name, data, perm)
}
