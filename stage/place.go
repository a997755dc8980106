package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// placeGrants turns scopes into directories now that the workdir exists:
// a tool or driver preopens <accessible>/<scope> (created if missing,
// never falling back to the whole workdir) or the accessible workdir; a
// hook preopens its scope or nothing, an on-stage hook relative to the
// session workdir (security.md §4).
func (s *Session) placeGrants(made *created) error {
	s.Ceiling.Preopen = s.AccessibleDir
	for _, a := range s.Artifacts {
		g := &a.Grants
		base := s.AccessibleDir
		switch {
		case a.Kind == KindSkill:
			g.Preopen = ""
			continue
		case a.Kind == KindNative:
			g.Preopen = s.AccessibleDir
			continue
		case a.Role == RoleHook && g.Scope == "":
			g.Preopen = ""
			continue
		case a.Role == RoleHook && a.Hook != nil && a.Hook.Binding == "on-stage":
			base = s.SessionDir
		}
		if g.Scope == "" {
			g.Preopen = base
			continue
		}
		dir := filepath.Join(base, filepath.FromSlash(g.Scope))
		if err := made.mkdirAll(dir); err != nil {
			return ioError(a.Name, fmt.Sprintf("failed to create granted filesystem scope '%s': %v", g.Scope, err), err)
		}
		g.Preopen = dir
	}
	return nil
}

// copyManifest puts murmur.yaml into a --workdir that has none, so the
// agent can read its own manifest at ./murmur.yaml. Best-effort, as in
// Murmur: a failure is a note, not an error.
func (s *Session) copyManifest() {
	dst := filepath.Join(s.AccessibleDir, "murmur.yaml")
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	data, err := os.ReadFile(s.ManifestPath)
	if err == nil {
		err = os.WriteFile(dst, data, 0o644)
	}
	if err != nil {
		s.Notes = append(s.Notes, "failed to copy murmur.yaml to the workdir: "+err.Error())
	}
}

// writeTask writes --task to <accessible>/task.md: a copy when the value
// names an existing file (relative to cwd), else the value itself.
func (s *Session) writeTask(made *created, task, cwd string) error {
	if task == "" {
		return nil
	}
	data := []byte(task)
	src := task
	if !filepath.IsAbs(src) {
		src = filepath.Join(cwd, src)
	}
	if fi, err := os.Stat(src); err == nil && fi.Mode().IsRegular() {
		if data, err = os.ReadFile(src); err != nil {
			return ioError("", fmt.Sprintf("failed to read task file %s: %v", src, err), err)
		}
	}
	dst := filepath.Join(s.AccessibleDir, "task.md")
	_, statErr := os.Lstat(dst)
	existed := statErr == nil
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return ioError("", fmt.Sprintf("failed to write %s: %v", dst, err), err)
	}
	if !existed {
		made.paths = append(made.paths, dst)
	}
	s.TaskPath = dst
	return nil
}
