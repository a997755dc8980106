package artifact

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// zipEpoch is the timestamp of every entry mur writes: the same inputs give
// the same bytes and so the same sha256.
func zipEpoch() time.Time { return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC) }

// zipSource is one entry to write: its content comes from a file on disk or
// from memory.
type zipSource struct {
	name string
	file string // read from here when data is nil
	data []byte
	exec bool
}

// writeZipAtomic writes the entries, Deflate-compressed and in order, to a
// temporary file beside out and renames it into place, so a failed or
// interrupted build never leaves a partial package under the final name.
func writeZipAtomic(ctx context.Context, out string, entries []zipSource) (err error) {
	dir := filepath.Dir(out)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	zw := zip.NewWriter(tmp)
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := writeEntry(zw, e); err != nil {
			return fmt.Errorf("packing %s: %w", e.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}

func writeEntry(zw *zip.Writer, e zipSource) error {
	h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: zipEpoch()}
	h.SetMode(0o644)
	if e.exec {
		h.SetMode(0o755)
	}
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	if e.data != nil {
		_, err = w.Write(e.data)
		return err
	}
	f, err := os.Open(e.file)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
