package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/provision"
	"github.com/mur-go/mur/internal/store/registry"
)

// all installs every registry artifact of the project's manifest, in
// parallel, then pins them in murmur.lock (also with -g: the lock belongs
// to the project), through package provision. Failures are reported
// together and do not stop the others from being installed; murmur.lock
// is written only when none failed.
func (in *installer) all(ctx context.Context) error {
	wd, err := cwd()
	if err != nil {
		return err
	}
	root, err := projectRoot(wd)
	if err != nil {
		return err
	}
	prog := in.newProgress()
	rep, err := provision.Capsule(ctx, provision.Options{Manifest: filepath.Join(root, manifest.FileName),
		Registry: in.reg, PlainHTTP: in.plainHTTP, SelectDir: wd, Global: in.global, Getenv: os.Getenv, Log: in.log,
		OnDone: func(d provision.Declared, done, total int, err error) {
			prog.status(fmt.Sprintf("installing artifacts: %d/%d done (last: %s@%s)", done, total, d.Name, d.Version), true)
			in.log.Debug("install finished", "artifact", d.Name+"@"+d.Version, "err", err)
		}})
	prog.clear()
	if err == nil && len(rep.Declared) == 0 {
		fmt.Fprintln(in.stdout, "No artifacts in manifest.")
		return nil
	}
	installed := 0
	for i, d := range rep.Declared {
		if i < len(rep.Errs) && rep.Errs[i] == nil {
			fmt.Fprintf(in.stdout, "Installed %s@%s → %s\n", d.Name, d.Version, rep.Installed[i].Path)
			installed++
		}
	}
	if err != nil {
		return err
	}
	switch {
	case rep.Pinned:
		fmt.Fprintf(in.stdout, "installed %d %s into %s; pinned in %s\n", installed, plural(installed, "artifact", "artifacts"), rep.Store, rep.LockPath)
	case installed > 0:
		fmt.Fprintf(in.stdout, "installed %d %s into %s; %s left as it was: it pins a capsule's artifacts all together, once every one installs\n",
			installed, plural(installed, "artifact", "artifacts"), rep.Store, rep.LockPath)
	}
	if err := in.compileInstalled(ctx, installedPaths(rep.Installed, rep.Errs)); err != nil {
		return err
	}
	var failed []string
	for i, d := range rep.Declared {
		if err := rep.Errs[i]; err != nil {
			if registryNotFound(err) {
				err = notFoundHint(err, rep.Target)
			}
			failed = append(failed, fmt.Sprintf("  %s@%s:\n    %s", d.Name, d.Version, strings.ReplaceAll(diag.Render(err), "\n", "\n    ")))
		}
	}
	if failed != nil {
		// The batch report is the command's output (a2a-cli.md §6.1): on
		// stdout, then exit 1 with nothing more said.
		n := len(rep.Declared)
		fmt.Fprintf(in.stdout, "%d of %d %s failed to install:\n%s\n", len(failed), n, plural(n, "artifact", "artifacts"), strings.Join(failed, "\n"))
		return &reportedError{fmt.Errorf("%d of %d artifacts failed to install", len(failed), n)}
	}
	return nil
}

func registryNotFound(err error) bool {
	var e *diag.Error
	return errors.As(err, &e) && e.Code == registry.CodeNotFound
}
