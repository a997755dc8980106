package lockfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
)

// Read loads and validates the lock at path. A missing file is reported as
// an error wrapping fs.ErrNotExist, which every caller treats as "no lock".
func Read(path string) (*Lock, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, ioError("read", path, err)
	}
	return Parse(data)
}

// ReadOrNew is Read with a missing file turned into an empty lock.
func ReadOrNew(path string) (*Lock, error) {
	l, err := Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	return l, err
}

// Write validates l and replaces path atomically: the text goes to an
// exclusively created temporary file in the same directory, is fsynced and
// renamed over the lock, and the directory is fsynced so the rename itself
// survives a crash. Readers see the old lock or the new one, never a mix.
func Write(path string, l *Lock) (err error) {
	data, err := l.Marshal()
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ioError("write", path, err)
	}
	tmp := filepath.Join(dir, "."+filepath.Base(path)+"."+strconv.FormatInt(time.Now().UnixNano(), 10)+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return ioError("write", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return ioError("write", path, err)
	}
	if err = f.Sync(); err != nil {
		return ioError("write", path, err)
	}
	if err = f.Close(); err != nil {
		return ioError("write", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return ioError("write", path, err)
	}
	return syncDir(dir)
}

// syncDir fsyncs a directory. Platforms that cannot open a directory for
// sync (Windows) skip it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, errors.ErrUnsupported) {
		return ioError("write", dir, err)
	}
	return nil
}

func ioError(op, path string, err error) error {
	return diag.Wrap(CodeIO, err, "failed to %s murmur.lock at %s: %v", op, path, err).
		WithHint("check the permissions of the project directory")
}
