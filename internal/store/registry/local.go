package registry

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
)

// Local is a directory registry:
//
//	<root>/<name>/<version>/<name>-<version>.mur.zip        generic package
//	<root>/<name>/<version>/<name>-<version>.sha256         its hex digest
//	<root>/<name>/<version>/<name>-<version>-<os>-<arch>.mur.zip / .sha256
//	<root>/<name>/<version>/<name>-<version>.meta.json      {"meta": ArtifactMeta}
//
// The global store and each project store share this layout.
type Local struct {
	root string
	log  *slog.Logger
}

var _ Registry = (*Local)(nil)

// NewLocal opens the store at root; the directory is created on first write.
// log may be nil.
func NewLocal(root string, log *slog.Logger) *Local {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Local{root: root, log: log}
}

// Root is the store's directory.
func (l *Local) Root() string { return l.root }

// GlobalRoot is <home>/.murmur/artifacts, home being HOME, else USERPROFILE
// (a relative value is taken from the working directory).
func GlobalRoot(getenv func(string) string) (string, error) {
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return "", &diag.Error{Code: CodeNoHome, Msg: "could not determine home directory",
			Hint: "set HOME to the directory that should hold .murmur/artifacts"}
	}
	home, err := filepath.Abs(home)
	if err != nil {
		return "", ioError(err)
	}
	return filepath.Join(home, ".murmur", "artifacts"), nil
}

// ProjectRoot is the project store of the capsule in projectDir.
func ProjectRoot(projectDir string) string {
	return filepath.Join(projectDir, ".murmur", "artifacts")
}

// metaFile is the on-disk wrapper of the metadata.
type metaFile struct {
	Meta artifact.Meta `json:"meta"`
}

func (l *Local) versionDir(name, version string) string { return filepath.Join(l.root, name, version) }

// files returns the package and sidecar paths of one variant.
func (l *Local) files(name, version string, p *artifact.Platform) (zip, sha string) {
	dir := l.versionDir(name, version)
	zip = filepath.Join(dir, artifact.FileName(name, version, p))
	return zip, strings.TrimSuffix(zip, artifact.Ext) + ".sha256"
}

func (l *Local) metaPath(name, version string) string {
	return filepath.Join(l.versionDir(name, version), name+"-"+version+".meta.json")
}

// PackagePath is where the package of a variant (nil = generic) lives.
func (l *Local) PackagePath(name, version string, p *artifact.Platform) string {
	zip, _ := l.files(name, version, p)
	return zip
}

// checkKey refuses names and versions that are not one plain path
// component: they become directory names, so "../x" must never get there.
func checkKey(name, version string) error {
	for _, f := range []struct{ what, v string }{{"name", name}, {"version", version}} {
		if f.v == "" || f.v == "." || f.v == ".." || strings.HasPrefix(f.v, ".") ||
			strings.ContainsAny(f.v, "/\\:\x00") || strings.TrimSpace(f.v) != f.v {
			e := invalidInput(fmt.Sprintf("invalid artifact %s '%s': must be a single path component without '/', '\\', ':' or a leading '.'", f.what, f.v))
			e.Hint = "use a name like my-tool and a version like 1.0.0"
			return e
		}
	}
	return nil
}

// Resolve reads a package and its sidecar digest. With a platform, that
// variant is used when both its files exist, else the generic package (so
// wasm and static artifacts resolve under any platform). The bytes are NOT
// verified here; call Verify.
func (l *Local) Resolve(ctx context.Context, name, version string, p *artifact.Platform) (*Resolved, error) {
	if err := checkKey(name, version); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var served *artifact.Platform
	zip, sha := l.files(name, version, nil)
	if p != nil {
		pz, ps := l.files(name, version, p)
		if exists(pz) && exists(ps) {
			zip, sha, served = pz, ps, p
		}
	}
	data, err := os.ReadFile(zip)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, NotFoundError(name, version)
	} else if err != nil {
		return nil, ioError(err)
	}
	side, err := os.ReadFile(sha)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, NotFoundError(name, version)
	} else if err != nil {
		return nil, ioError(err)
	}
	digest := strings.TrimSpace(string(side))
	if digest == "" {
		return nil, invalidInput(fmt.Sprintf("artifact %s@%s has an empty sha256 sidecar", name, version))
	}
	meta, err := l.readMeta(name, version)
	if err != nil {
		return nil, err
	}
	l.log.Debug("resolved artifact", "artifact", name+"@"+version, "file", zip)
	return &Resolved{Name: name, Version: version, Data: data, SHA256: digest, Meta: meta, Platform: served}, nil
}

// readMeta returns the version's metadata, or the fallback when the file is
// missing. An unreadable or invalid file is an error, not a silent default.
func (l *Local) readMeta(name, version string) (artifact.Meta, error) {
	b, err := os.ReadFile(l.metaPath(name, version))
	if errors.Is(err, fs.ErrNotExist) {
		return artifact.FallbackMeta(name, version), nil
	} else if err != nil {
		return artifact.Meta{}, ioError(err)
	}
	var mf metaFile
	if err := json.Unmarshal(b, &mf); err != nil {
		return artifact.Meta{}, ioError(fmt.Errorf("%s: %w", l.metaPath(name, version), err))
	}
	return mf.Meta, nil
}

// List returns every version that has a generic package with its sidecar,
// or any platform package, sorted by name, version and packaging type.
func (l *Local) List(ctx context.Context) ([]artifact.Meta, error) {
	names, err := os.ReadDir(l.root)
	if errors.Is(err, fs.ErrNotExist) {
		return []artifact.Meta{}, nil
	} else if err != nil {
		return nil, ioError(err)
	}
	out := []artifact.Meta{}
	for _, n := range names {
		if !n.IsDir() || strings.HasPrefix(n.Name(), ".") {
			continue
		}
		versions, err := os.ReadDir(filepath.Join(l.root, n.Name()))
		if err != nil {
			return nil, ioError(err)
		}
		for _, v := range versions {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if !v.IsDir() || !l.hasPackage(n.Name(), v.Name()) {
				continue
			}
			meta, err := l.readMeta(n.Name(), v.Name())
			if err != nil {
				return nil, err
			}
			meta.Name, meta.Version = n.Name(), v.Name()
			out = append(out, meta)
		}
	}
	slices.SortFunc(out, func(a, b artifact.Meta) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Version, b.Version), strings.Compare(string(a.Runtime), string(b.Runtime)))
	})
	return out, nil
}

func (l *Local) hasPackage(name, version string) bool {
	zip, sha := l.files(name, version, nil)
	if exists(zip) && exists(sha) {
		return true
	}
	ents, err := os.ReadDir(l.versionDir(name, version))
	if err != nil {
		return false
	}
	prefix := name + "-" + version + "-"
	return slices.ContainsFunc(ents, func(e fs.DirEntry) bool {
		return strings.HasPrefix(e.Name(), prefix) && strings.HasSuffix(e.Name(), artifact.Ext)
	})
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
