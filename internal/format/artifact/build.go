package artifact

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/manifestio"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// Source is the artifact directory holding murmur.yaml; "" means ".".
	Source string
	// Output is where to write: "" means <source>/<name>-<version>.mur.zip,
	// a directory means that file name inside it (an existing one, or one
	// created for a path ending in a separator or whose last element has
	// no extension), anything else is the path itself (which must end in
	// .mur.zip).
	Output string
	// OnWarning receives lints and secret-scan findings as they are found;
	// the build goes on. Nil discards them.
	OnWarning func(Warning)
	// ScanSecrets, if set, inspects the source manifest for literal secrets
	// (W-SEC-004). The scan belongs to the manifest package; Build only
	// calls it at the right moment.
	ScanSecrets func(manifest []byte) []Warning
	// Parse reads the manifest; nil means ParseManifest.
	Parse func([]byte) (*Manifest, error)
	// MaxEntry is the decompression ceiling the written package is
	// verified under; 0 means DefaultMaxDecompressedBytes.
	MaxEntry int64
}

// BuildResult describes a package Build wrote.
type BuildResult struct {
	Path     string // absolute path of the .mur.zip
	Manifest *Manifest
	Type     RuntimeType
	Entries  []string // archive entry names, in order
	Payload  string   // selected root wasm for wasm packages, else ""
	SHA256   string
	Size     int64
}

// Build packs an artifact directory into a .mur.zip: murmur.yaml first, then
// the requires_files entries in declaration order. Nothing is written when
// any check fails. Build never compiles anything and never checks reserved
// versions (that is publish's job).
func Build(ctx context.Context, opt BuildOptions) (*BuildResult, error) {
	warn := opt.OnWarning
	if warn == nil {
		warn = func(Warning) {}
	}
	parse := opt.Parse
	if parse == nil {
		parse = ParseManifest
	}
	source, raw, err := readSourceManifest(opt.Source)
	if err != nil {
		return nil, err
	}
	m, err := parse(raw)
	if err != nil {
		return nil, err
	}
	if opt.ScanSecrets != nil {
		for _, w := range opt.ScanSecrets(raw) {
			warn(w)
		}
	}
	out, err := outputPath(source, opt.Output, m)
	if err != nil {
		return nil, err
	}
	if err := CheckName(m.Name); err != nil {
		return nil, err
	}
	p, err := planEntries(source, out, m)
	if err != nil {
		return nil, err
	}
	t := m.PackagingType()
	p.lint(t)
	for _, w := range p.warnings {
		warn(w)
	}
	if !strings.HasSuffix(out, Ext) {
		return nil, newError(CodeIO, "name the output <name>-<version>.mur.zip or pass a directory to -o", nil,
			"output path must end with .mur.zip: "+out)
	}
	res := &BuildResult{Path: out, Manifest: m, Type: t, Entries: p.archiveNames()}
	if t == Wasm {
		if res.Payload, err = SelectRootWasm(res.Entries); err != nil {
			return nil, newError(CodeNoPayload,
				"list the component in requires_files at the archive root (e.g. requires_files: [my_tool.wasm]); name it capsule.wasm if there are several",
				err, err.Error())
		}
		if err := p.checkPayload(res.Payload); err != nil {
			return nil, err
		}
	}
	srcs := make([]zipSource, len(p.entries))
	for i, e := range p.entries {
		srcs[i] = zipSource{name: e.archive, file: e.path, exec: isExecutable(e.path)}
	}
	if err := writeZipAtomic(ctx, out, srcs); err != nil {
		return nil, newError(CodeIO, "check that the output directory is writable", err,
			fmt.Sprintf("failed to write %s: %v", out, err))
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, newError(CodeIO, "", err, fmt.Sprintf("failed to read back %s: %v", out, err))
	}
	maxEntry := opt.MaxEntry
	if maxEntry == 0 {
		maxEntry = DefaultMaxDecompressedBytes
	}
	// What was written is what gets published: check it as a registry
	// will, and hand out nothing that fails.
	if _, err := Verify(data, maxEntry); err != nil {
		os.Remove(out)
		return nil, newError(CodeIO, "a source file changed while it was packed, or the disk is failing: build again", err,
			fmt.Sprintf("the package written to %s does not verify, so it was removed: %v", out, err))
	}
	res.SHA256, res.Size = SHA256Hex(data), int64(len(data))
	return res, nil
}

// readSourceManifest resolves the source directory and reads its manifest.
func readSourceManifest(source string) (abs string, raw []byte, err error) {
	if source == "" {
		source = "."
	}
	if abs, err = filepath.Abs(source); err != nil {
		return "", nil, newError(CodeIO, "", err, err.Error())
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		return "", nil, newError(CodeNotFound, "pass the directory that holds the artifact's murmur.yaml", err,
			fmt.Sprintf("artifact directory %s not found: %v", source, unwrapPathError(err)))
	}
	raw, err = manifestio.ReadFile(filepath.Join(abs, ManifestEntry))
	var big *manifestio.SizeError
	if errors.As(err, &big) {
		return "", nil, err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, newError(CodeNotFound,
			"run mur build in a directory with murmur.yaml (name, version, runtime and requires_files), or pass that directory",
			err, fmt.Sprintf("manifest not found: %s", filepath.Join(abs, ManifestEntry)))
	}
	if err != nil {
		return "", nil, newError(CodeIO, "", err, fmt.Sprintf("failed to read %s: %v", filepath.Join(abs, ManifestEntry), err))
	}
	return abs, raw, nil
}

// outputPath applies the -o rules and returns an absolute, clean path.
func outputPath(source, output string, m *Manifest) (string, error) {
	def := FileName(m.Name, m.Version, nil)
	if output == "" {
		return filepath.Join(source, def), nil
	}
	abs, err := filepath.Abs(output)
	if err != nil {
		return "", newError(CodeIO, "", err, err.Error())
	}
	if isOutputDir(output, abs) {
		return filepath.Join(abs, def), nil
	}
	return abs, nil
}

// isOutputDir reports whether -o output names a directory: one that
// exists, or, before it exists, a path ending in a separator or whose
// last element has no extension ("dist", "out/pkgs"): no file name
// could be meant there, as a package's must end in .mur.zip.
func isOutputDir(output, abs string) bool {
	info, err := os.Stat(abs)
	if err == nil {
		return info.IsDir()
	}
	return strings.HasSuffix(output, "/") || strings.HasSuffix(output, string(filepath.Separator)) ||
		errors.Is(err, fs.ErrNotExist) && !strings.Contains(filepath.Base(abs), ".")
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().Perm()&0o111 != 0
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
