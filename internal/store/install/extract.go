package install

import (
	"fmt"
	"os"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/registry"
)

// extract is step 4: open the verified archive in memory, read and parse
// murmur.yaml, then read the payload Request.Payload picks. Only fixed
// entry names are read, each through the decompression ceiling
// (artifacts.md §1–2); nothing is written.
func (f *Fetcher) extract(r *Resolved, sha string) (*Artifact, error) {
	getenv := f.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	pkg, err := artifact.OpenDigested(r.Package.Data, sha, artifact.MaxDecompressedBytes(getenv))
	if err != nil {
		return nil, unreadable(r, nil, err, err)
	}
	raw, err := pkg.Manifest()
	if err != nil {
		return nil, unreadable(r, ErrManifest, err,
			fmt.Errorf("missing or unreadable murmur.yaml in artifact archive: %w", err))
	}
	mf, _, err := manifest.Parse(raw, artifact.ManifestEntry, manifest.ParseOptions{Role: manifest.RoleArtifact})
	if err != nil {
		return nil, unreadable(r, ErrManifest, err,
			fmt.Errorf("invalid murmur.yaml in artifact archive: %w", err))
	}
	a := &Artifact{Name: r.Name, Version: r.Version, Source: r.Source.Name, SHA256: sha, Data: r.Package.Data,
		Meta: r.Package.Meta, Platform: r.Package.Platform, ManifestYAML: raw, Manifest: mf.Artifact,
		from: r.Source.Resolver}
	if r.Payload == nil {
		return a, nil
	}
	if a.Payload, err = r.Payload(a); err != nil {
		return nil, err
	}
	switch a.Payload {
	case PayloadNative:
		a.PayloadEntry = "bin/" + r.Name
		if a.PayloadData, err = pkg.NativeBinary(r.Name); err != nil {
			return nil, unreadable(r, a.Payload, err, fmt.Errorf(
				"failed to read native binary at 'bin/%s' from archive (ensure the binary is at bin/%s inside the .mur.zip): %w", r.Name, r.Name, err))
		}
	case PayloadSkill:
		a.PayloadEntry = artifact.SkillEntry
		if a.PayloadData, err = pkg.Skill(); err != nil {
			return nil, unreadable(r, a.Payload, err,
				fmt.Errorf("skill.md not found or unreadable at archive root: %w", err))
		}
	case PayloadWasm:
		a.PayloadEntry, a.PayloadData, err = pkg.RootWasmFrom(f.Payloads)
		if err != nil {
			return nil, unreadable(r, a.Payload, err, err)
		}
	}
	return a, nil
}

// unreadable is an extract failure: E-IO-003 "failed to read artifact
// archive for <n>@<v>: <what>" (artifacts.md §1), with cause as Err,
// marked StepExtract and with what it was reading (ErrManifest, a
// Payload; nil for the archive itself).
func unreadable(r *Resolved, reading, cause, what error) error {
	marks := []error{StepExtract}
	if reading != nil {
		marks = append(marks, reading)
	}
	return diag.Mark(diag.Wrap(registry.CodeIO, cause, "failed to read artifact archive for %s@%s: %v", r.Name, r.Version, diag.Text(what)).
		WithHint("rebuild the package with `mur build` and publish a new version"), marks...)
}
