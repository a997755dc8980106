package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/store/provision"
)

// compileInstalled compiles the WASM components of the packages just
// installed at paths into the compilation cache, so the first 'mur run'
// loads machine code instead of compiling it (seconds for a large guest:
// the work moves to the command that already downloads). A package that
// does not compile stays installed, with a warning: a run of it reports
// the same failure. Only an interrupt fails the command.
func (in *installer) compileInstalled(ctx context.Context, paths []string) error {
	if in.noCompile || len(paths) == 0 {
		return nil
	}
	engine, err := component.NewEngine(ctx, component.Config{CacheDir: os.Getenv(cacheDirEnv)})
	if err != nil {
		fmt.Fprintf(in.stderr, "warning: not compiling ahead of the first run: %s\n", strings.TrimSuffix(diag.Render(err), "\n"))
		return nil
	}
	defer engine.Close(context.WithoutCancel(ctx))
	prog := in.newProgress()
	start, compiled := time.Now(), 0
	for i, p := range paths {
		prog.status(fmt.Sprintf("compiling for this machine: %d/%d", i, len(paths)), true)
		ok, err := stage.Precompile(ctx, engine, p, os.Getenv)
		switch {
		case ctx.Err() != nil:
			prog.clear()
			return ctx.Err()
		case err != nil:
			prog.clear()
			fmt.Fprintf(in.stderr, "warning: %s is installed but does not compile here; 'mur run' will refuse it:\n  %s\n",
				p, strings.ReplaceAll(strings.TrimSuffix(diag.Render(err), "\n"), "\n", "\n  "))
		case ok:
			compiled++
		}
	}
	prog.clear()
	if compiled > 0 {
		fmt.Fprintf(in.stdout, "compiled %d WASM %s for this machine in %.1fs (cached in %s)\n",
			compiled, plural(compiled, "component", "components"), time.Since(start).Seconds(), engine.CacheDir())
	}
	return nil
}

// installedPaths are the store paths of the installs in done that
// succeeded: errs, when given, holds each one's error.
func installedPaths(done []provision.Installed, errs []error) []string {
	var out []string
	for i, d := range done {
		if d.Path != "" && (i >= len(errs) || errs[i] == nil) {
			out = append(out, d.Path)
		}
	}
	return out
}
