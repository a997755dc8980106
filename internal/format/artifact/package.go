package artifact

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"unicode/utf8"

	"github.com/mur-go/mur/internal/base/manifestio"
)

// ManifestEntry is the exact archive name of the artifact manifest.
const ManifestEntry = "murmur.yaml"

// SkillEntry is the exact archive name of a skill's text.
const SkillEntry = "skill.md"

// Package is an opened .mur.zip held in memory. It reads entries by exact
// name only, each through the decompression ceiling; nothing is extracted.
type Package struct {
	data     []byte
	sha      string
	names    []string
	files    map[string]*zip.File
	maxEntry int64
}

// Open parses the archive in data. maxEntry is the per-entry decompression
// ceiling (see MaxDecompressedBytes). Archives with more than MaxEntries
// entries, or with two entries of the same name (which would let a checker
// and a loader see different files), are refused.
func Open(data []byte, maxEntry int64) (*Package, error) {
	return OpenDigested(data, SHA256Hex(data), maxEntry)
}

// OpenDigested is Open for a caller that has just taken sha, the
// SHA256Hex of data (install verifies the archive against its pin that
// way), so the archive is not hashed a second time.
func OpenDigested(data []byte, sha string, maxEntry int64) (*Package, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, newError(CodeIO, "check that the file is a .mur.zip built by 'mur build'", err,
			fmt.Sprintf("not a valid zip archive: %v", err))
	}
	if len(zr.File) > MaxEntries {
		return nil, newError(CodeIO, "", ErrTooLarge,
			fmt.Sprintf("zip archive has %d entries, more than the %d mur accepts", len(zr.File), MaxEntries))
	}
	p := &Package{data: data, sha: sha, files: make(map[string]*zip.File, len(zr.File)), maxEntry: maxEntry}
	for _, f := range zr.File {
		if _, dup := p.files[f.Name]; dup {
			return nil, newError(CodeIO, "rebuild the package with 'mur build'", ErrUnsafeEntry,
				fmt.Sprintf("zip archive has more than one entry named '%s'", f.Name))
		}
		p.files[f.Name] = f
		p.names = append(p.names, f.Name)
	}
	return p, nil
}

// SHA256 is the hex digest of the whole archive.
func (p *Package) SHA256() string { return p.sha }

// Bytes returns the archive bytes. The caller must not modify them.
func (p *Package) Bytes() []byte { return p.data }

// Names lists the entry names in archive order.
func (p *Package) Names() []string { return append([]string(nil), p.names...) }

// Has reports whether an entry with exactly this name exists.
func (p *Package) Has(name string) bool { _, ok := p.files[name]; return ok }

// ReadEntry returns the decompressed content of the entry named exactly
// name. It stops after maxEntry+1 bytes, so a small entry that inflates to
// gigabytes costs at most the ceiling. Symlink and directory entries are
// refused: a fixed-name lookup must never yield a link target as content.
func (p *Package) ReadEntry(name string) ([]byte, error) {
	f, err := p.regularEntry(name)
	if err != nil {
		return nil, err
	}
	tooLarge := newError(CodeIO, "raise "+MaxDecompressedEnv+" if the artifact is trusted", ErrTooLarge,
		fmt.Sprintf("zip entry '%s' exceeds the %d-byte decompression ceiling", name, p.maxEntry))
	if f.UncompressedSize64 > uint64(p.maxEntry) {
		return nil, tooLarge
	}
	rc, err := f.Open()
	if err != nil {
		return nil, newError(CodeIO, "", err, fmt.Sprintf("zip entry '%s': %v", name, err))
	}
	defer rc.Close()
	var buf bytes.Buffer
	buf.Grow(int(min(f.UncompressedSize64, 1<<26)))
	n, err := io.Copy(&buf, io.LimitReader(rc, p.maxEntry+1))
	if n > p.maxEntry {
		return nil, tooLarge
	}
	if err != nil {
		return nil, newError(CodeIO, "", err, fmt.Sprintf("zip entry '%s': %v", name, err))
	}
	return buf.Bytes(), nil
}

// regularEntry looks up the entry named exactly name, refusing symlink
// and directory entries: a fixed-name lookup must never yield a link
// target as content.
func (p *Package) regularEntry(name string) (*zip.File, error) {
	f, ok := p.files[name]
	if !ok {
		return nil, newError(CodeIO, "", ErrEntryNotFound, fmt.Sprintf("zip entry '%s' not found", name))
	}
	switch mode := f.Mode(); {
	case mode&fs.ModeSymlink != 0:
		return nil, newError(CodeIO, "", ErrUnsafeEntry, fmt.Sprintf("zip entry '%s' is a symlink", name))
	case mode.IsDir():
		return nil, newError(CodeIO, "", ErrUnsafeEntry, fmt.Sprintf("zip entry '%s' is a directory", name))
	}
	return f, nil
}

// ParsedManifest is Manifest parsed (ParseManifest).
func (p *Package) ParsedManifest() (*Manifest, error) {
	raw, err := p.Manifest()
	if err != nil {
		return nil, err
	}
	return ParseManifest(raw)
}

// Manifest returns the murmur.yaml entry, which must be UTF-8. It is read
// through manifestio.ReadLimited: an entry whose header claims more than
// manifestio.MaxSize is refused unread, and inflating stops one byte past
// the cap whatever the header said. The *manifestio.SizeError names the
// entry; callers that know the archive's path can say which one.
func (p *Package) Manifest() ([]byte, error) {
	f, err := p.regularEntry(ManifestEntry)
	if errors.Is(err, ErrEntryNotFound) {
		return nil, newError(CodeIO, "an artifact needs murmur.yaml at the archive root; rebuild it with 'mur build'",
			err, "artifact missing required file "+ManifestEntry)
	}
	if err != nil {
		return nil, err
	}
	b, err := p.readManifest(f)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		return nil, newError(CodeIO, "", nil, fmt.Sprintf("zip entry '%s' is not valid UTF-8", ManifestEntry))
	}
	return b, nil
}

// readManifest inflates the manifest entry under the tighter of the
// package's decompression ceiling and manifestio.MaxSize.
func (p *Package) readManifest(f *zip.File) ([]byte, error) {
	if p.maxEntry < manifestio.MaxSize {
		return p.ReadEntry(ManifestEntry)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, newError(CodeIO, "", err, fmt.Sprintf("zip entry '%s': %v", ManifestEntry, err))
	}
	defer rc.Close()
	b, err := manifestio.ReadLimited(rc, "murmur.yaml in the package", int64(min(f.UncompressedSize64, 1<<62)))
	var big *manifestio.SizeError
	if err != nil && !errors.As(err, &big) {
		return nil, newError(CodeIO, "", err, fmt.Sprintf("zip entry '%s': %v", ManifestEntry, err))
	}
	return b, err
}

// RootWasm selects the payload (SelectRootWasm) and reads it.
func (p *Package) RootWasm() (name string, wasm []byte, err error) {
	name, err = SelectRootWasm(p.names)
	if err != nil {
		return "", nil, newError(CodeIO, "", err, err.Error())
	}
	wasm, err = p.ReadEntry(name)
	return name, wasm, err
}

// Skill reads skill.md from the archive root.
func (p *Package) Skill() ([]byte, error) {
	b, err := p.ReadEntry(SkillEntry)
	if err != nil {
		return nil, newError(CodeIO, "", err,
			fmt.Sprintf("skill.md not found or unreadable at archive root (%s): %v", SkillEntry, err))
	}
	return b, nil
}

// NativeBinary reads bin/<name>, the payload of a native tool; name is the
// name the capsule manifest declares for the entry.
func (p *Package) NativeBinary(name string) ([]byte, error) {
	entry := "bin/" + name
	b, err := p.ReadEntry(entry)
	if err != nil {
		return nil, newError(CodeIO, "", err, fmt.Sprintf(
			"failed to read native binary at '%s' from archive (ensure the binary is at %s inside the .mur.zip): %v",
			entry, entry, err))
	}
	return b, nil
}

// PayloadCache keeps inflated payloads across processes (the runtime's
// is an on-disk memo beside the compilation cache). A value Get returns
// may be read-only memory (the runtime's maps its file), so neither
// RootWasmFrom nor its callers ever write to a payload.
type PayloadCache interface {
	Get(key [32]byte) ([]byte, bool)
	Put(key [32]byte, value []byte)
}

// RootWasmFrom is RootWasm taking the inflated payload from cache, and
// keeping it there when it had to inflate it. A cached payload is used
// only if its size and CRC-32 are those the archive (whose digest is in
// the key) records for the entry; anything else is inflated again. A
// nil cache is RootWasm.
func (p *Package) RootWasmFrom(cache PayloadCache) (name string, wasm []byte, err error) {
	if cache == nil {
		return p.RootWasm()
	}
	name, err = SelectRootWasm(p.names)
	if err != nil {
		return "", nil, newError(CodeIO, "", err, err.Error())
	}
	f, err := p.regularEntry(name)
	if err != nil {
		return "", nil, err
	}
	key := sha256.Sum256([]byte(p.sha + "\x00" + name))
	if b, ok := cache.Get(key); ok && uint64(len(b)) == f.UncompressedSize64 && int64(len(b)) <= p.maxEntry && crc32.ChecksumIEEE(b) == f.CRC32 {
		return name, b, nil
	}
	if wasm, err = p.ReadEntry(name); err != nil {
		return "", nil, err
	}
	cache.Put(key, wasm)
	return name, wasm, nil
}
