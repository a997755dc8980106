package artifact

import (
	"errors"
	"fmt"
	"io"
)

// Verify checks a whole package before anything trusts it: a registry
// accepting it, a lock pinning it, a build handing it out. It opens the
// archive (entry count, duplicate names), checks every entry name is safe,
// reads every entry to its end through the zip reader, which checks each
// entry's CRC-32 and its declared sizes, under the maxEntry decompression
// ceiling, and parses murmur.yaml. Corruption found here would otherwise
// surface only at run time, after the package was stored immutably.
func Verify(data []byte, maxEntry int64) (*Manifest, error) {
	p, err := Open(data, maxEntry)
	if err != nil {
		return nil, err
	}
	for _, name := range p.names {
		if err := p.verifyEntry(name); err != nil {
			return nil, err
		}
	}
	raw, err := p.Manifest()
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(raw)
	if err != nil {
		return nil, newError(CodeIO, "fix murmur.yaml and rebuild the package with 'mur build'", err,
			fmt.Sprintf("package murmur.yaml does not parse: %v", err))
	}
	return m, nil
}

// verifyEntry reads one entry, whatever its kind, to its end and discards
// the bytes: archive/zip reports a CRC or size mismatch only at EOF.
func (p *Package) verifyEntry(name string) error {
	if _, err := SanitizeEntryName(name); err != nil {
		return err
	}
	f := p.files[name]
	corrupt := func(err error) error {
		return newError(CodeIO, "the file is damaged: rebuild it with 'mur build' (or download it again)", err,
			fmt.Sprintf("zip entry '%s' is corrupt: %v", name, err))
	}
	if f.UncompressedSize64 > uint64(p.maxEntry) {
		return newError(CodeIO, "raise "+MaxDecompressedEnv+" if the artifact is trusted", ErrTooLarge,
			fmt.Sprintf("zip entry '%s' exceeds the %d-byte decompression ceiling", name, p.maxEntry))
	}
	rc, err := f.Open()
	if err != nil {
		return corrupt(err)
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, io.LimitReader(rc, p.maxEntry+1))
	switch {
	case n > p.maxEntry:
		return newError(CodeIO, "raise "+MaxDecompressedEnv+" if the artifact is trusted", ErrTooLarge,
			fmt.Sprintf("zip entry '%s' exceeds the %d-byte decompression ceiling", name, p.maxEntry))
	case err != nil:
		return corrupt(err)
	case uint64(n) != f.UncompressedSize64:
		return corrupt(errors.New("zip: size does not match the directory"))
	}
	return nil
}
