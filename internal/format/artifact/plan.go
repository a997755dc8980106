package artifact

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// plannedEntry is one file mur build will pack.
type plannedEntry struct {
	declared string // as written in requires_files ("murmur.yaml" for the manifest)
	archive  string // entry name in the zip
	path     string // absolute, lexically clean path on disk
}

// plan is the validated list of entries, manifest first.
type plan struct {
	entries  []plannedEntry
	warnings []Warning
}

// planEntries validates requires_files and decides the archive entries
// (artifacts.md §10.1 step 4). source must be absolute and clean; output is
// the absolute output path, dropped from the set if declared.
func planEntries(source, output string, m *Manifest) (*plan, error) {
	manifest := plannedEntry{declared: ManifestEntry, archive: ManifestEntry, path: filepath.Join(source, ManifestEntry)}
	p := &plan{entries: []plannedEntry{manifest}}
	byPath := map[string]plannedEntry{manifest.path: manifest}
	byArchive := map[string]plannedEntry{manifest.archive: manifest}
	for _, decl := range m.RequiresFiles {
		abs, err := checkRequiredFile(source, decl)
		if err != nil {
			return nil, err
		}
		e := plannedEntry{declared: decl, archive: strings.ReplaceAll(decl, `\`, "/"), path: abs}
		if first, dup := byPath[abs]; dup {
			if e.archive == ManifestEntry || e.archive == CapsuleWasm {
				p.warnings = append(p.warnings, Warning{Code: "W-BLD-001",
					Msg:  fmt.Sprintf("requires_files entry '%s' is the same file as '%s' and is packed only once", decl, first.declared),
					Hint: "remove the duplicate from requires_files"})
			}
			continue
		}
		if abs == output {
			continue
		}
		if other, clash := byArchive[e.archive]; clash {
			return nil, newError(CodeUnsafeFile, "rename one of the files so each packs under its own name", nil,
				fmt.Sprintf("requires_files entries '%s' and '%s' both pack as the archive entry '%s'", other.declared, decl, e.archive))
		}
		byPath[abs], byArchive[e.archive] = e, e
		p.entries = append(p.entries, e)
	}
	return p, nil
}

// checkRequiredFile applies the authoring mirror of the reader's path rule
// and returns the file's absolute path.
func checkRequiredFile(source, decl string) (string, error) {
	unsafe := func(reason string) error {
		return newError(CodeUnsafeFile, "list files by their path relative to the artifact directory, e.g. my_tool.wasm", nil,
			fmt.Sprintf("requires_files entry '%s' has an unsafe path: %s", decl, reason))
	}
	if strings.HasPrefix(decl, "/") || strings.HasPrefix(decl, `\`) || filepath.IsAbs(decl) || hasDrivePrefix(decl) {
		return "", unsafe("is an absolute path")
	}
	if slices.Contains(strings.FieldsFunc(decl, isSeparator), "..") {
		return "", unsafe("contains a '..' component")
	}
	abs := filepath.Join(source, decl)
	info, err := os.Stat(abs) // follows links: a dangling link is missing
	if err != nil {
		return "", newError(CodeIO, "create the file or remove it from requires_files", err,
			fmt.Sprintf("missing required file '%s' in %s", decl, source))
	}
	if link := firstSymlink(source, abs); link != "" {
		return "", newError(CodeUnsafeFile, "copy the real file into the artifact directory", nil,
			fmt.Sprintf("requires_files entry '%s' is a symlink (%s); declare the file it points to instead", decl, link))
	}
	if !info.Mode().IsRegular() {
		return "", newError(CodeIO, "list each file inside it in requires_files", nil,
			fmt.Sprintf("requires_files entry '%s' is not a regular file (%s)", decl, abs))
	}
	return abs, nil
}

// firstSymlink returns the first path from source (exclusive) to abs
// (inclusive) that is a symlink, or "". Checking the parents too stops a
// linked directory from smuggling files from outside the artifact.
func firstSymlink(source, abs string) string {
	rel, err := filepath.Rel(source, abs)
	if err != nil {
		return abs
	}
	cur := source
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, c)
		info, err := os.Lstat(cur)
		if err != nil || info.Mode()&fs.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}

// lint adds the W-BLD-002 and W-BLD-003 findings for the planned entries.
func (p *plan) lint(t RuntimeType) {
	names := p.archiveNames()
	roots := rootWasmNames(names)
	if slices.Contains(roots, CapsuleWasm) && len(roots) > 1 {
		others := slices.DeleteFunc(slices.Clone(roots), func(n string) bool { return n == CapsuleWasm })
		p.warnings = append(p.warnings, Warning{Code: "W-BLD-002",
			Msg:  fmt.Sprintf("root 'capsule.wasm' is always selected as the payload, so %s ships but never runs", strings.Join(others, ", ")),
			Hint: "remove the other root .wasm files from requires_files, or rename the one you mean to run to capsule.wasm"})
	}
	if t != Wasm && t != Native {
		return
	}
	var inputs []string
	for _, n := range names {
		base := path.Base(n)
		if slices.Contains(strings.Split(n, "/"), "target") || base == "Cargo.toml" || base == "Cargo.lock" || strings.HasSuffix(base, ".rs") {
			inputs = append(inputs, n)
		}
	}
	if inputs != nil {
		p.warnings = append(p.warnings, Warning{Code: "W-BLD-003",
			Msg:  "compiled artifact packages build inputs: " + strings.Join(inputs, ", "),
			Hint: "list only the built payload in requires_files (copy it out of target/ first)"})
	}
}

func (p *plan) archiveNames() []string {
	names := make([]string, len(p.entries))
	for i, e := range p.entries {
		names[i] = e.archive
	}
	return names
}
