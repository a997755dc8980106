package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/mur-go/mur/internal/format/artifact"
)

// Publish adds a package and never overwrites: if this variant's package or
// sidecar already exists the result is ErrConflict (E-REG-003). Other
// variants of the same version may coexist; the shared .meta.json is
// rewritten by the last publisher.
func (l *Local) Publish(ctx context.Context, meta artifact.Meta, data []byte) (*Published, error) {
	if artifact.IsReservedVersion(meta.Version) {
		return nil, reservedError(meta.Version)
	}
	if err := checkKey(meta.Name, meta.Version); err != nil {
		return nil, err
	}
	if err := verifyPackage(meta, data); err != nil {
		return nil, err
	}
	sha := artifact.SHA256Hex(data)
	ws, err := l.stage(ctx, meta, data, sha, l.mergedPlatforms(meta))
	if err != nil {
		return nil, err
	}
	defer ws.cleanup()
	if exists(ws.zip.final) || exists(ws.sha.final) {
		return nil, conflictError(meta.Name, meta.Version)
	}
	if err := commitNew(ws.zip); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, conflictError(meta.Name, meta.Version)
		}
		return nil, ioError(err)
	}
	if err := commitNew(ws.sha); err != nil {
		os.Remove(ws.zip.final)
		if errors.Is(err, fs.ErrExist) {
			return nil, conflictError(meta.Name, meta.Version)
		}
		return nil, ioError(err)
	}
	if err := os.Rename(ws.meta.tmp, ws.meta.final); err != nil {
		os.Remove(ws.zip.final)
		os.Remove(ws.sha.final)
		return nil, ioError(err)
	}
	syncDir(ws.dir)
	l.log.Info("published artifact", "artifact", meta.ID(), "sha256", sha, "file", ws.zip.final)
	return &Published{ArtifactID: meta.ID(), SHA256: sha}, nil
}

// StoreInstalled writes a package that was resolved elsewhere, replacing
// whatever this store held for the variant. The bytes must hash to expected
// (E-REG-002) or nothing is written. The old files are kept as backups
// until the new ones are all in place and restored if any step fails.
// It returns the package's path.
func (l *Local) StoreInstalled(ctx context.Context, meta artifact.Meta, data []byte, expected string) (string, error) {
	if err := checkKey(meta.Name, meta.Version); err != nil {
		return "", err
	}
	sha := artifact.SHA256Hex(data)
	if !artifact.SameDigest(sha, expected) {
		return "", IntegrityError(meta.Name, meta.Version, expected, sha)
	}
	if err := verifyPackage(meta, data); err != nil {
		return "", err
	}
	ws, err := l.stage(ctx, meta, data, sha, meta.Platforms)
	if err != nil {
		return "", err
	}
	defer ws.cleanup()
	var done []*staged
	restore := func() {
		for _, s := range done {
			os.Remove(s.final)
			if s.backup != "" {
				os.Rename(s.backup, s.final)
			}
		}
	}
	for _, s := range []*staged{&ws.zip, &ws.sha, &ws.meta} {
		if exists(s.final) {
			s.backup = filepath.Join(ws.dir, "."+filepath.Base(s.final)+"."+ws.seed+".bak")
			if err := os.Rename(s.final, s.backup); err != nil {
				s.backup = ""
				restore()
				return "", ioError(err)
			}
		}
		done = append(done, s)
		if err := os.Rename(s.tmp, s.final); err != nil {
			restore()
			return "", ioError(err)
		}
	}
	for _, s := range done {
		if s.backup != "" {
			os.Remove(s.backup)
		}
	}
	syncDir(ws.dir)
	l.log.Info("stored artifact", "artifact", meta.ID(), "sha256", sha, "file", ws.zip.final)
	return ws.zip.final, nil
}

// staged is one file of a write set: its temporary and final names.
type staged struct{ tmp, final, backup string }

// writeSet is the three temporaries of one publish or install.
type writeSet struct {
	dir, seed      string
	zip, sha, meta staged
}

func (ws *writeSet) cleanup() {
	for _, s := range []staged{ws.zip, ws.sha, ws.meta} {
		os.Remove(s.tmp)
	}
}

// mergedPlatforms is the platform list .meta.json records after publishing
// meta: Murmur's last writer simply replaces it, so a version published for
// two platforms listed only one; mur-go keeps every published variant.
func (l *Local) mergedPlatforms(meta artifact.Meta) []artifact.Platform {
	if len(meta.Platforms) == 0 {
		return meta.Platforms
	}
	old, err := l.readMeta(meta.Name, meta.Version)
	if err != nil {
		return meta.Platforms
	}
	out := slices.Clone(meta.Platforms)
	for _, p := range old.Platforms {
		pz, ps := l.files(meta.Name, meta.Version, &p)
		if !slices.Contains(out, p) && exists(pz) && exists(ps) {
			out = append(out, p)
		}
	}
	return out
}

// stage writes the package, sidecar and metadata to exclusive temporaries
// in the version directory, each fsynced, ready to be renamed into place.
// The package goes to the variant of meta.Platforms[0]; recorded is the
// platform list written to .meta.json.
func (l *Local) stage(ctx context.Context, meta artifact.Meta, data []byte, sha string, recorded []artifact.Platform) (*writeSet, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var p *artifact.Platform
	if len(meta.Platforms) > 0 {
		p = &meta.Platforms[0]
	}
	ws := &writeSet{dir: l.versionDir(meta.Name, meta.Version),
		seed: strconv.FormatInt(time.Now().UnixNano()^int64(os.Getpid()), 36)}
	if err := os.MkdirAll(ws.dir, 0o755); err != nil {
		return nil, ioError(err)
	}
	zip, sha256 := l.files(meta.Name, meta.Version, p)
	stored := meta
	stored.Platforms = recorded
	mj, err := json.MarshalIndent(metaFile{Meta: stored}, "", "  ")
	if err != nil {
		return nil, ioError(err)
	}
	for _, f := range []struct {
		s     *staged
		final string
		data  []byte
	}{{&ws.zip, zip, data}, {&ws.sha, sha256, []byte(sha)}, {&ws.meta, l.metaPath(meta.Name, meta.Version), mj}} {
		f.s.final = f.final
		f.s.tmp = filepath.Join(ws.dir, "."+filepath.Base(f.final)+"."+ws.seed+".tmp")
		if err := writeExclusive(f.s.tmp, f.data); err != nil {
			ws.cleanup()
			return nil, ioError(err)
		}
	}
	return ws, nil
}

// commitNew moves tmp to final only if final does not exist. A hard link
// is atomic no-clobber; where links are unsupported it falls back to a
// check-then-rename.
func commitNew(s staged) error {
	err := os.Link(s.tmp, s.final)
	if err == nil {
		return os.Remove(s.tmp)
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	if exists(s.final) {
		return fmt.Errorf("%s: %w", s.final, fs.ErrExist)
	}
	return os.Rename(s.tmp, s.final)
}

func writeExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes renames in dir durable; failure only costs durability.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
