package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/github"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/provision"
	"github.com/mur-go/mur/internal/store/registry"
)

// release installs a bare name (the default source's latest release) or
// a github:OWNER/REPO@TAG ref (every package of that release), through
// install's checks, then pins what it stored (unless -g).
func (in *installer) release(cmd *cobra.Command, ref string) error {
	repo, tag, err := github.ParseRef(ref)
	if err != nil {
		return err
	}
	if in.reg != "" || in.plainHTTP {
		return usagef(cmd, "--registry and --plain-http do not apply to '%s': bare names and github: refs install from GitHub releases", ref)
	}
	ctx := cmd.Context()
	gh, err := provision.GitHub(os.Getenv, in.log)
	if err != nil {
		return err
	}
	src, err := gh.Repo(repo)
	if err != nil {
		return err
	}
	to, err := in.destination()
	if err != nil {
		return err
	}
	prog := in.newProgress()
	prog.status("fetching "+ref+" from "+src.String(), true)
	var pkgs []*registry.Resolved
	if tag == "" {
		var p *registry.Resolved
		if p, err = src.Latest(ctx, ref, artifact.CurrentPlatform()); err == nil {
			pkgs = []*registry.Resolved{p}
		}
	} else {
		pkgs, err = src.Release(ctx, tag, artifact.CurrentPlatform())
	}
	var done []provision.Installed
	if err == nil {
		done, err = provision.Release(ctx, &install.Fetcher{Lock: to.lock, Mode: install.Guard}, to.store, src, pkgs)
	}
	prog.clear()
	pins := make([]lockfile.Entry, 0, len(done))
	for _, d := range done {
		fmt.Fprintf(in.stdout, "Installed %s@%s from %s → %s\n", d.Pin.Name, d.Pin.ResolvedVersion, src, d.Path)
		pins = append(pins, d.Pin)
	}
	if err != nil {
		return err
	}
	if to.lock != nil {
		if err := install.Pin(to.lockPath, to.lock, pins...); err != nil {
			return err
		}
		for _, p := range pins {
			fmt.Fprintf(in.stdout, "  pinned %s in %s (sha256 %s)\n", p.Name, to.lockPath, shortSHA(p.SHA256.Wasm))
		}
	}
	return in.compileInstalled(ctx, installedPaths(done, nil))
}

// allPlatforms is Murmur's --all-platforms NAME@VERSION: each platform it
// ships, from the default source, into the global store, unpinned. A
// platform the release has no package for is a warning, as in Murmur;
// any other failure, or none installed, fails the command.
func (in *installer) allPlatforms(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return usagef(cmd, "--all-platforms requires an artifact reference (name@version)")
	case in.reg != "" || in.plainHTTP:
		return usagef(cmd, "--registry and --plain-http do not apply to --all-platforms, which installs from GitHub releases")
	}
	name, version, ok := strings.Cut(strings.TrimSpace(args[0]), "@")
	if !ok || name == "" || version == "" || strings.Contains(version, "@") {
		return &diag.Error{Code: artifact.CodeIO, Msg: "artifact reference must be in the format <name@version>",
			Hint: "for example: mur install --all-platforms murmur-tool-git@0.4.0"}
	}
	gh, err := provision.GitHub(os.Getenv, in.log)
	if err != nil {
		return err
	}
	src, err := gh.Repo(github.DefaultRepo)
	if err != nil {
		return err
	}
	dst, err := provision.Store("", true, os.Getenv, in.log)
	if err != nil {
		return err
	}
	installed, failed := 0, 0
	var last error
	for _, r := range provision.AllPlatforms(cmd.Context(), src, dst, name, version) {
		switch {
		case r.Err == nil:
			kind := r.Platform
			if r.Generic {
				kind += ", generic package"
			}
			fmt.Fprintf(in.stdout, "Installed %s@%s (%s) → %s\n", name, version, kind, r.Installed.Path)
			installed++
		case provision.NotFound(r.Err):
			fmt.Fprintf(in.stderr, "warning: could not install %s@%s for %s: %s\n", name, version, r.Platform, strings.TrimSuffix(diag.Render(r.Err), "\n"))
		default:
			fmt.Fprintf(in.stderr, "could not install %s@%s for %s:\n%s", name, version, r.Platform, diag.Render(r.Err))
			failed++
			last = r.Err
		}
	}
	switch {
	case failed > 0:
		return &reportedError{fmt.Errorf("%d platforms failed to install: %w", failed, last)}
	case installed == 0:
		return registry.NotFoundError(name, version).WithHint(fmt.Sprintf("no platform's package of %s@%s is in %s", name, version, src))
	}
	return nil
}
