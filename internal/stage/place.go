package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/format/manifest"
)

// placeGrants turns scopes into directories now that the workdir exists:
// a tool or driver preopens <accessible>/<scope> (created if missing,
// never falling back to the whole workdir) or the accessible workdir; a
// hook preopens its scope or nothing, an on-stage hook relative to the
// session workdir (security.md §4). acc and sess are Roots of the two
// workdirs: a scope is created inside its Root and must contain no
// symbolic link, or an earlier session's guest could have pointed a tool's
// preopen anywhere.
func (s *Staged) placeGrants(made *created, acc, sess *os.Root) error {
	s.Ceiling.Preopen = s.AccessibleDir
	for _, a := range s.Artifacts {
		g := &a.Grants
		base, root := s.AccessibleDir, acc
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
		case a.onStageHook():
			base, root = s.SessionDir, sess
		}
		if g.Scope == "" {
			g.Preopen = base
			continue
		}
		rel := filepath.Clean(filepath.FromSlash(g.Scope))
		if rel == "." {
			g.Preopen = base
			continue
		}
		scopeErr := func(err error) error {
			return ioError(fmt.Sprintf("failed to create granted filesystem scope '%s': %v", g.Scope, err), err)
		}
		if err := noLinks(root, rel); err != nil {
			return scopeErr(err)
		}
		if err := made.mkdirIn(root, rel); err != nil {
			return scopeErr(err)
		}
		if err := noLinks(root, rel); err != nil {
			return scopeErr(err)
		}
		g.Preopen = filepath.Join(base, rel)
	}
	return nil
}

// noLinks refuses rel if any of its existing elements under root is a
// symbolic link (checked before creating it, for a clear error, and after).
func noLinks(root *os.Root, rel string) error {
	parts := strings.Split(rel, string(filepath.Separator))
	for i := range parts {
		p := filepath.Join(parts[:i+1]...)
		fi, err := root.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return &confined.SymlinkError{Path: filepath.Join(root.Name(), p)}
		}
	}
	return nil
}

// copyManifest puts murmur.yaml into a --workdir that has none, so the
// agent can read its own manifest at ./murmur.yaml. Best-effort, as in
// Murmur: a failure is a note, not an error. Anything already there (a
// file or a link) is left alone. The copy is for guests to read, so it
// goes through the session's redactor: a literal inference.api_key in the
// manifest must not reach them through it.
func (s *Staged) copyManifest(made *created, acc *os.Root) {
	data, err := os.ReadFile(s.manifestPath)
	if err == nil {
		err = made.writeNew(acc, manifest.FileName, s.secrets.Bytes(data), 0o644)
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		s.Notes = append(s.Notes, "failed to copy murmur.yaml to the workdir: "+err.Error())
	}
}

// writeTask writes the task text to <accessible>/task.md. A task.md
// that is a symbolic link (a reused --workdir) is refused, never written
// through.
func (s *Staged) writeTask(made *created, acc *os.Root, task string) error {
	if task == "" {
		return nil
	}
	data := []byte(task)
	dst := filepath.Join(s.AccessibleDir, TaskFile)
	_, statErr := acc.Lstat(TaskFile)
	existed := statErr == nil
	if err := confined.WriteFile(acc, TaskFile, data, 0o644, os.O_CREATE|os.O_TRUNC); err != nil {
		e := ioError(fmt.Sprintf("failed to write %s: %v", dst, err), err)
		if errors.Is(err, confined.ErrSymlink) {
			e.Hint = "task.md in the workdir is a symbolic link (left by an earlier session?); remove it and run again"
		}
		return e
	}
	if !existed {
		made.paths = append(made.paths, dst)
	}
	s.taskPath = dst
	return nil
}
