// Package diskmemo keeps values by 32-byte key in a directory, for what
// the engine and the runtime keep beside the compilation cache (rewritten
// core modules, inflated payloads). What it reads back becomes code mur
// compiles or runs, so it believes only what this user (or root) wrote
// where no one else may write: a directory and entries owned by the
// effective user or root that neither group nor others may write,
// entries that are regular files (not links) carrying their own key and
// a checksum of the value. Anything else reads as a miss, and is
// replaced on the next Put. Map is Get without the copy: the value where
// it is in a read-only mapping of its entry, checked the same way.
package diskmemo

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
)

// magic starts every entry; its last byte is the format's version.
var magic = []byte("murmemo\x01")

// headerSize: magic, key, value length (8 bytes), CRC-32C of the value.
const headerSize = 8 + 32 + 8 + 4

// maxValue bounds what one entry may claim to hold.
const maxValue = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Memo is a directory of entries. Its methods never fail: a memo that
// cannot be read or written is one that misses.
type Memo struct {
	dir string

	mu sync.Mutex
	// mapped are the values Map returned, by key: mapped once per
	// process, and never unmapped (see Map).
	mapped map[[32]byte][]byte
}

// Open creates dir if need be (mode 0700) and returns its memo, or says
// why dir may not be believed.
func Open(dir string) (*Memo, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	if err := checkOwned(fi); err != nil {
		return nil, fmt.Errorf("%s is not this user's own: %w; use a directory only you can write", dir, err)
	}
	return &Memo{dir: dir}, nil
}

func (m *Memo) path(key [32]byte) string {
	return filepath.Join(m.dir, hex.EncodeToString(key[:]))
}

// Get returns the value kept under key, if an entry for it is there and
// believed.
func (m *Memo) Get(key [32]byte) ([]byte, bool) {
	v, err := m.read(key)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			slog.Debug("diskmemo: entry not used", "entry", m.path(key), "reason", err.Error())
		}
		return nil, false
	}
	return v, true
}

func (m *Memo) read(key [32]byte) ([]byte, error) {
	f, size, err := m.open(key)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return decode(key, b)
}

// open opens key's entry, if it is one to believe: a regular file (not a
// link) of this user or root that no one else may write, of a size an
// entry may have, which it returns.
func (m *Memo) open(key [32]byte) (*os.File, int, error) {
	f, err := os.OpenFile(m.path(key), os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err == nil {
		err = checkOwned(fi)
	}
	if err == nil && (fi.Size() < headerSize || fi.Size() > headerSize+maxValue) {
		err = fmt.Errorf("%d bytes is no entry", fi.Size())
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, int(fi.Size()), nil
}

// Map is Get returning the value where it is in the entry's file, mapped
// read-only, instead of a copy: its pages are the page cache's, shared by
// every process that maps the entry, never copied or zeroed first, and
// an idle process can drop them. The value must never be written to (a
// write faults). It stays mapped for the life of the process, since what
// was made from it may refer into it; a key is mapped once per Memo, so
// what stays is bounded by the entries the process used. Where mapping
// is not supported, it is Get.
func (m *Memo) Map(key [32]byte) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.mapped[key]; ok {
		return v, true
	}
	v, err := m.mapEntry(key)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			slog.Debug("diskmemo: entry not used", "entry", m.path(key), "reason", err.Error())
		}
		return nil, false
	}
	if m.mapped == nil {
		m.mapped = map[[32]byte][]byte{}
	}
	m.mapped[key] = v
	return v, true
}

// decode checks an entry read whole and returns its value.
func decode(key [32]byte, b []byte) ([]byte, error) {
	if len(b) < headerSize || !bytes.Equal(b[:8], magic) {
		return nil, errors.New("not an entry of this format")
	}
	if !bytes.Equal(b[8:40], key[:]) {
		return nil, errors.New("the entry of another key")
	}
	n := binary.LittleEndian.Uint64(b[40:48])
	v := b[headerSize:]
	if n != uint64(len(v)) {
		return nil, fmt.Errorf("value of %d bytes where %d were written", len(v), n)
	}
	if crc32.Checksum(v, castagnoli) != binary.LittleEndian.Uint32(b[48:52]) {
		return nil, errors.New("checksum mismatch")
	}
	return v, nil
}

// Put keeps value under key: written to a temporary file of mode 0600
// and renamed over whatever the key's entry was.
func (m *Memo) Put(key [32]byte, value []byte) {
	if err := m.write(key, value); err != nil {
		slog.Debug("diskmemo: entry not kept", "entry", m.path(key), "reason", err.Error())
	}
}

func (m *Memo) write(key [32]byte, value []byte) (err error) {
	if len(value) > maxValue {
		return fmt.Errorf("a value of %d bytes is too large to keep", len(value))
	}
	f, err := os.CreateTemp(m.dir, hex.EncodeToString(key[:])+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	var h [headerSize]byte
	copy(h[:8], magic)
	copy(h[8:40], key[:])
	binary.LittleEndian.PutUint64(h[40:48], uint64(len(value)))
	binary.LittleEndian.PutUint32(h[48:52], crc32.Checksum(value, castagnoli))
	if _, err = f.Write(h[:]); err != nil {
		return err
	}
	if _, err = f.Write(value); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), m.path(key))
}
