package stage

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
)

// compilerHelperTimeout bounds one `<driver> -print-prog-name` run.
const compilerHelperTimeout = 5 * time.Second

// driverHelpers are the programs a compiler driver execs (W-SEC-012);
// none for any other binary.
func driverHelpers(driver string) []string {
	switch driver {
	case "cc", "gcc":
		return []string{"cc1", "as", "ld", "collect2"}
	case "c++", "g++":
		return []string{"cc1plus", "as", "ld", "collect2"}
	}
	return nil
}

// uncoveredHelpers asks each allowlisted compiler driver where its
// helpers are (`<driver> -print-prog-name=<helper>`, a bare answer looked
// up on pathEnv as the driver would) and keeps those no Execute-carrying
// grant covers under the sealed root: an allowlisted binary, an
// interpreter_runtime directory, a staged_runtime tree (§13 W-SEC-012).
func uncoveredHelpers(ctx context.Context, c *manifest.Capabilities, pathEnv string) []policy.CompilerHelper {
	var grantDirs, execs []string
	if c != nil && c.Shell != nil {
		for _, g := range c.Shell.InterpreterRuntime {
			for _, d := range g.Dirs {
				grantDirs = append(grantDirs, d.Path)
			}
		}
		for _, g := range c.Shell.StagedRuntime {
			grantDirs = append(grantDirs, g.SourcePath)
		}
	}
	for _, b := range c.ShellAllow() {
		if p := policy.LookPath(b, pathEnv); p != "" {
			execs = append(execs, sandbox.ExecClosure(p, pathEnv)...)
		}
	}
	covered := func(p string) bool {
		return slices.Contains(execs, p) || slices.ContainsFunc(grantDirs, func(d string) bool {
			return strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/")
		})
	}
	var out []policy.CompilerHelper
	for _, driver := range c.ShellAllow() {
		exe := policy.LookPath(driver, pathEnv)
		if exe == "" {
			continue
		}
		for _, h := range driverHelpers(driver) {
			p := helperPath(ctx, exe, h, pathEnv)
			if p != "" && !covered(p) {
				out = append(out, policy.CompilerHelper{Driver: driver, Helper: h, Path: p})
			}
		}
	}
	return out
}

// helperPath is where driver finds helper, canonical; "" if nowhere.
func helperPath(ctx context.Context, driver, helper, pathEnv string) string {
	ctx, cancel := context.WithTimeout(ctx, compilerHelperTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, driver, "-print-prog-name="+helper)
	cmd.Env = []string{"PATH=" + pathEnv}
	b, err := cmd.Output()
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(b))
	if !filepath.IsAbs(p) {
		p = policy.LookPath(p, pathEnv)
	}
	if p == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return ""
}
