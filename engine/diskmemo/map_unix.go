//go:build unix

package diskmemo

import "golang.org/x/sys/unix"

// mapEntry maps key's entry read-only and private, checks it as read
// does, and returns its value within the mapping. The checksum is taken
// over the mapping, so the pages it reads are the ones the value is.
func (m *Memo) mapEntry(key [32]byte) ([]byte, error) {
	f, size, err := m.open(key)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		// A file system that maps nothing: the entry is read instead.
		return m.read(key)
	}
	v, err := decode(key, b)
	if err != nil {
		_ = unix.Munmap(b)
		return nil, err
	}
	// Capped: an append copies instead of writing into the mapping.
	return v[:len(v):len(v)], nil
}
