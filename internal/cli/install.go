package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/provision"
	"github.com/mur-go/mur/internal/store/registry"
)

const installLong = `Install artifacts from a registry into the project's store
(.murmur/artifacts beside the nearest murmur.yaml) or, with -g, into the
global store (~/.murmur/artifacts), where 'mur run' finds them.

Without ARTIFACT, installs every artifact the capsule's murmur.yaml
declares (entries with source: are local and skipped) and pins each one in
murmur.lock: its version and the sha256 of its exact package bytes.

ARTIFACT is one of:
  name@version        from the registry; pinned in murmur.lock (unless -g)
  name                the latest release of Murmur's default source on
                      GitHub (murmur-nexus/default-artifacts); pinned
  github:OWNER/REPO@TAG
                      every package of that GitHub release (variants for
                      other platforms left out); each pinned
  ./path/x.mur.zip    a package file, stored as is; never pinned

Every download is checked against the sha256 its source records before
anything is written (E-REG-002): the registry's, the OCI manifest's, or a
GitHub release asset's "digest" and <asset>.sha256 (at least one is
needed; both must agree). If murmur.lock already pins the artifact to
another version or other bytes, the install is refused (E-REG-005) and
nothing changes: remove the entry from murmur.lock to upgrade on purpose.

Each WASM component installed is then compiled for this machine into
the compilation cache ($MUR_CACHE_DIR, default the user cache directory's
mur/wasm), so the first 'mur run' loads machine code instead of spending
seconds compiling a large guest. --no-compile leaves that to the first
run. A component that does not compile stays installed, with a warning.

The registry is chosen as for 'mur publish': --registry, then
registry.remote_url / registry.default in ./murmur.yaml, else the global
store. From an oci:// registry, the tag's manifest and package blob are
checked against their digests and the package sha256 annotation before
anything is written (see 'mur publish --help').

GitHub is reached at $MUR_GITHUB_API_BASE (default https://api.github.com;
plain http only on loopback), with $GITHUB_TOKEN if set, which is sent to
that origin only, never to the host a download is redirected to.
--all-platforms NAME@VERSION stores each platform Murmur ships
(linux-x86_64, darwin-aarch64) from the default source into the global
store, unpinned: the release tagged VERSION (or vVERSION), else the
latest, asset <name>-<version>-<platform>.mur.zip or the generic
<name>-<version>.mur.zip.`

const installExample = `  # every artifact of the capsule in this directory, pinned in murmur.lock
  mur install
  # one artifact from the global store into the project
  mur install hello-tool@0.1.0
  # from a team registry
  NEXUS_API_KEY=secret mur install hello-tool@0.1.0 --registry http://registry.internal:7800
  # from an OCI registry (credentials from the Docker config)
  mur install hello-tool@0.1.0 --registry oci://registry.example.com/murmur
  # a package file into the global store
  mur install -g ./hello-tool-0.1.0.mur.zip
  # the latest release of a first-party artifact, or a release of your own
  mur install murmur-driver-anthropic
  mur install github:acme/artifacts@v1.2.0
  # every platform's package of a version, for another machine
  mur install --all-platforms murmur-tool-git@0.4.0`

func newInstallCommand(a *app) *cobra.Command {
	var reg string
	var global, plainHTTP, allPlatforms, noCompile bool
	cmd := &cobra.Command{
		Use:     "install [ARTIFACT]",
		Short:   "Install artifacts into the project (or global) store and pin them",
		Long:    installLong,
		Example: installExample,
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkPlainHTTP(cmd, plainHTTP, reg); err != nil {
				return err
			}
			in := &installer{app: a, reg: reg, global: global, plainHTTP: plainHTTP, noCompile: noCompile}
			if allPlatforms {
				return in.allPlatforms(cmd, args)
			}
			if len(args) == 0 {
				return in.all(cmd.Context())
			}
			return in.one(cmd, strings.TrimSpace(args[0]))
		},
	}
	f := cmd.Flags()
	f.StringVar(&reg, "registry", "", "registry URL (http(s):// or oci://HOST[:PORT]/PREFIX), or \"local\" for the global store")
	f.BoolVar(&plainHTTP, "plain-http", false, "allow plain HTTP to a non-loopback oci:// registry")
	f.BoolVarP(&global, "global", "g", false, "install into the global store ~/.murmur/artifacts (no lock for a single ARTIFACT)")
	f.BoolVar(&noCompile, "no-compile", false, "do not compile WASM components for this machine now (the first 'mur run' then does)")
	f.BoolVar(&allPlatforms, "all-platforms", false, "store NAME@VERSION for every platform Murmur ships, from GitHub, into the global store")
	return cmd
}

// installer carries one invocation's choices.
type installer struct {
	*app
	reg       string
	plainHTTP bool
	global    bool
	// noCompile leaves compiling installed components to the first run.
	noCompile bool
}

// one installs a single reference.
func (in *installer) one(cmd *cobra.Command, ref string) error {
	ctx := cmd.Context()
	switch {
	case isLocalPackageRef(ref):
		return in.file(ctx, ref)
	case strings.Contains(ref, ":") || !strings.Contains(ref, "@"):
		return in.release(cmd, ref)
	}
	name, version, ok := strings.Cut(ref, "@")
	if !ok || name == "" || version == "" || strings.Contains(version, "@") {
		return &diag.Error{Code: artifact.CodeIO, Msg: "artifact reference must be in the format <name@version>",
			Hint: "for example: mur install hello-tool@0.1.0"}
	}
	to, err := in.destination()
	if err != nil {
		return err
	}
	src, target, err := in.source(to.wd)
	if err != nil {
		return err
	}
	prog := in.newProgress()
	if c, ok := src.(*registry.Client); ok {
		c.Progress = prog.transfer
	}
	f := &install.Fetcher{Sources: provision.Sources(install.Source{Name: target.String(), Resolver: src}), Lock: to.lock, Mode: install.Guard}
	res, err := provision.Artifact(ctx, f, to.store, name, version)
	prog.clear()
	if errors.Is(err, registry.ErrNotFound) {
		return notFoundHint(err, target)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(in.stdout, "Installed %s@%s → %s\n", name, version, res.Path)
	if to.lock != nil {
		if err := install.Pin(to.lockPath, to.lock, res.Pin); err != nil {
			return err
		}
		fmt.Fprintf(in.stdout, "  pinned in %s (sha256 %s)\n", to.lockPath, shortSHA(res.Pin.SHA256.Wasm))
	}
	return in.compileInstalled(ctx, []string{res.Path})
}

// file stores a local package as is: no registry, no lock, no checks on
// name or version beyond what the store needs.
func (in *installer) file(ctx context.Context, path string) error {
	data, m, err := readPackage(path, "pass the path of a .mur.zip built by 'mur build'")
	if err != nil {
		return err
	}
	wd, err := cwd()
	if err != nil {
		return err
	}
	dst, _, err := in.store(wd)
	if err != nil {
		return err
	}
	sha := artifact.SHA256Hex(data)
	p, err := dst.StoreInstalled(ctx, packageMeta(m), data, sha)
	if err != nil {
		return err
	}
	fmt.Fprintf(in.stdout, "Installed %s@%s → %s\n", m.Name, m.Version, p)
	return in.compileInstalled(ctx, []string{p})
}

// store is the destination: the global store with -g, else the project's.
func (in *installer) store(wd string) (dst *registry.Local, root string, err error) {
	if !in.global {
		if root, err = projectRoot(wd); err != nil {
			return nil, "", err
		}
	}
	dst, err = provision.Store(root, in.global, os.Getenv, in.log)
	return dst, root, err
}

// source opens the registry to install from.
func (in *installer) source(wd string) (registry.Resolver, registry.Target, error) {
	t, err := registry.Select(in.reg, wd)
	if err != nil {
		return nil, t, err
	}
	r, err := in.openRegistry(t, in.plainHTTP)
	return r, t, err
}

// packageMeta is the metadata install records: the packaging type and role
// from the package's own manifest, stored as the generic variant.
func packageMeta(m *artifact.Manifest) artifact.Meta {
	return artifact.Meta{Name: m.Name, Version: m.Version, Runtime: m.PackagingType(), ArtifactRuntime: m.Runtime,
		Platforms: []artifact.Platform{}, Tags: []string{}}
}

// isLocalPackageRef: starts with ./, ../ or /, or contains / and ends .mur.zip.
func isLocalPackageRef(ref string) bool {
	return strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../") || strings.HasPrefix(ref, "/") ||
		(strings.Contains(ref, "/") && strings.HasSuffix(ref, artifact.Ext))
}

// notFoundHint adds which registry was searched to E-REG-001.
func notFoundHint(err error, t registry.Target) error {
	var e *diag.Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	if t.Remote {
		c.Hint = fmt.Sprintf("searched %s; check the name and version, or publish it there with 'mur publish --registry %s'", t.URL, t.URL)
	} else {
		c.Hint = "searched the global store (~/.murmur/artifacts); see what it holds with 'mur list -g', publish with 'mur publish', or pass --registry URL"
	}
	return &c
}

// projectLock is the project's murmur.lock and its path, read (or new)
// for the pins an install adds; nil and "" for a global install, which
// pins nothing.
func (in *installer) projectLock(root string) (*lockfile.Lock, string, error) {
	if in.global {
		return nil, "", nil
	}
	path := filepath.Join(root, lockfile.FileName)
	lock, err := lockfile.ReadOrNew(path)
	return lock, path, err
}

// installTo is where a registry or release install writes: the store,
// and for a project install the lock it pins in (nil with -g).
type installTo struct {
	wd       string
	store    *registry.Local
	lock     *lockfile.Lock
	lockPath string
}

// destination resolves installTo from the working directory.
func (in *installer) destination() (installTo, error) {
	wd, err := cwd()
	if err != nil {
		return installTo{}, err
	}
	dst, root, err := in.store(wd)
	if err != nil {
		return installTo{}, err
	}
	lock, lockPath, err := in.projectLock(root)
	if err != nil {
		return installTo{}, err
	}
	return installTo{wd: wd, store: dst, lock: lock, lockPath: lockPath}, nil
}
