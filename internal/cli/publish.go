package cli

import (
	"errors"
	"fmt"
	"github.com/mur-go/mur/internal/base/diag"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/manifestio"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/registry"
)

const publishLong = `Publish a .mur.zip to a registry.

Without PATH, publishes ./<name>-<version>.mur.zip, the name and version
read from ./murmur.yaml (what 'mur build' writes by default).

The registry is, first match wins: --registry (a URL, or "local" for the
global store ~/.murmur/artifacts); registry.remote_url in ./murmur.yaml;
registry.default there ("remote" means http://localhost:7800); else local.
Remote HTTP registries need NEXUS_API_KEY. An oci://HOST[:PORT]/PREFIX
registry stores the package as an OCI artifact at PREFIX/<name>:<version>,
with credentials from the Docker config (~/.docker/config.json or
$DOCKER_CONFIG, and its credential helpers); plain HTTP is used only for a
loopback registry or with --plain-http.

Published versions are immutable: publishing the same name and version
again fails with E-REG-003. The versions latest, stable and edge are
reserved (E-REG-004).

Native tools (implementation: native) are published as a platform variant
for this machine, or for --platform; wasm and skill artifacts are generic
and resolve on every platform.`

const publishExample = `  # after 'mur build' in the artifact directory
  mur publish
  # a package file, to the global store explicitly
  mur publish dist/hello-tool-0.1.0.mur.zip --registry local
  # to a team registry (see 'mur registry serve')
  NEXUS_API_KEY=secret mur publish --registry http://registry.internal:7800
  # to an OCI registry (after 'docker login registry.example.com')
  mur publish --registry oci://registry.example.com/murmur
  # a native tool built for another machine
  mur publish my-native-tool-0.2.0.mur.zip --platform darwin-aarch64`

func newPublishCommand(a *app) *cobra.Command {
	var reg, platform string
	var plainHTTP bool
	cmd := &cobra.Command{
		Use:     "publish [PATH]",
		Short:   "Publish a .mur.zip to the local or a remote registry",
		Long:    publishLong,
		Example: publishExample,
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkPlainHTTP(cmd, plainHTTP, reg); err != nil {
				return err
			}
			path := ""
			if len(args) == 1 {
				path = args[0]
			}
			return a.publish(cmd, path, reg, platform, plainHTTP)
		},
	}
	cmd.Flags().StringVar(&reg, "registry", "", "registry URL (http(s):// or oci://HOST[:PORT]/PREFIX), or \"local\" for the global store")
	cmd.Flags().BoolVar(&plainHTTP, "plain-http", false, "allow plain HTTP to a non-loopback oci:// registry")
	cmd.Flags().StringVar(&platform, "platform", "", "publish as a native variant for `OS-ARCH` (e.g. linux-x86_64)")
	return cmd
}

func (a *app) publish(cmd *cobra.Command, path, reg, platform string, plainHTTP bool) error {
	ctx := cmd.Context()
	if platform != "" {
		if _, err := artifact.ParsePlatform(platform); err != nil {
			return &diag.Error{Code: artifact.CodeIO, Err: err, Msg: err.Error(),
				Hint: "use one of darwin-aarch64, darwin-x86_64, linux-aarch64, linux-x86_64"}
		}
	}
	wd, err := cwd()
	if err != nil {
		return err
	}
	if path == "" {
		if path, err = defaultPackagePath(wd); err != nil {
			return err
		}
	}
	data, m, err := readPackage(path, "pass the .mur.zip that 'mur build' wrote")
	if err != nil {
		return err
	}
	meta := artifact.Meta{Name: m.Name, Version: m.Version, ArtifactRuntime: m.Runtime, Platforms: []artifact.Platform{}, Tags: []string{}}
	if artifact.IsReservedVersion(m.Version) {
		return &diag.Error{Code: registry.CodeReserved, Err: registry.ErrReservedVersion,
			Msg:  fmt.Sprintf("version '%s' is reserved and cannot be published", m.Version),
			Hint: "latest, stable and edge are reserved; set a concrete version such as 1.0.0 in murmur.yaml and rebuild"}
	}
	if meta.Runtime, meta.Platforms, err = a.publishPlatform(m, platform); err != nil {
		return err
	}
	target, err := registry.Select(reg, wd)
	if err != nil {
		return err
	}
	r, err := a.openRegistry(target, plainHTTP)
	if err != nil {
		return err
	}
	prog := a.newProgress()
	if c, ok := r.(*registry.Client); ok {
		c.Progress = prog.transfer
	}
	pub, err := r.Publish(ctx, meta, data)
	prog.clear()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "Published %s\n", pub.ArtifactID)
	where := target.String()
	if l, ok := r.(*registry.Local); ok {
		var p *artifact.Platform
		if len(meta.Platforms) > 0 {
			p = &meta.Platforms[0]
		}
		where = l.PackagePath(meta.Name, meta.Version, p)
	}
	fmt.Fprintf(a.stdout, "  %s · %s · sha256 %s\n  → %s\n", meta.Runtime, humanBytes(int64(len(data))), shortSHA(pub.SHA256), where)
	regFlag := ""
	if target.Remote {
		regFlag = " --registry " + target.URL
	}
	fmt.Fprintf(a.stdout, "  install it in a capsule: mur install %s%s\n", pub.ArtifactID, regFlag)
	return nil
}

// publishPlatform decides the packaging type and platform: --platform
// forces a native variant; static stays static; implementation: native is
// tagged with this machine's platform; everything else is wasm.
func (a *app) publishPlatform(m *artifact.Manifest, flag string) (artifact.RuntimeType, []artifact.Platform, error) {
	if flag != "" {
		p, err := artifact.ParsePlatform(flag)
		if err != nil {
			return "", nil, &diag.Error{Code: artifact.CodeIO, Err: err, Msg: err.Error(),
				Hint: "use one of darwin-aarch64, darwin-x86_64, linux-aarch64, linux-x86_64"}
		}
		return artifact.Native, []artifact.Platform{p}, nil
	}
	switch {
	case m.PackagingType() == artifact.Static:
		return artifact.Static, []artifact.Platform{}, nil
	case m.Implementation == "native":
		cur := artifact.CurrentPlatform()
		if cur == artifact.UnknownPlatform {
			return "", nil, &diag.Error{Code: artifact.CodeIO,
				Msg:  "cannot detect a supported platform for this native artifact",
				Hint: "pass --platform os-arch (e.g. linux-x86_64) naming the machine the binary was built for"}
		}
		p, _ := artifact.ParsePlatform(cur)
		fmt.Fprintf(a.stdout, "Platform: %s (auto-detected)\n", cur)
		return artifact.Native, []artifact.Platform{p}, nil
	}
	return artifact.Wasm, []artifact.Platform{}, nil
}

// defaultPackagePath is ./<name>-<version>.mur.zip from ./murmur.yaml.
func defaultPackagePath(wd string) (string, error) {
	raw, err := manifestio.ReadFile(filepath.Join(wd, artifact.ManifestEntry))
	var big *manifestio.SizeError
	if errors.As(err, &big) {
		return "", err
	}
	if err != nil {
		return "", &diag.Error{Code: artifact.CodeNotFound, Err: err,
			Msg:  fmt.Sprintf("no artifact path given and no murmur.yaml in %s", wd),
			Hint: "pass the package to publish (mur publish path/to/name-version.mur.zip), or run in the artifact directory"}
	}
	// Only name and version matter here, so a capsule manifest works too.
	var m struct{ Name, Version string }
	if err := yaml.Unmarshal(raw, &m); err != nil || m.Name == "" || m.Version == "" {
		if _, _, perr := parseArtifactManifest(raw, filepath.Join(wd, artifact.ManifestEntry)); perr != nil {
			return "", perr
		}
		return "", &diag.Error{Code: artifact.CodeInvalid, Msg: "murmur.yaml: name and version must be strings",
			Hint: "quote the version (version: \"1.0\"), or pass the package path"}
	}
	p := filepath.Join(wd, artifact.FileName(m.Name, m.Version, nil))
	if _, err := os.Stat(p); err != nil {
		return "", &diag.Error{Code: artifact.CodeNotFound, Err: err,
			Msg:  fmt.Sprintf("default artifact path %s not found. Run 'mur build' first or pass an explicit artifact path.", p),
			Hint: "mur build && mur publish"}
	}
	return p, nil
}

// packedManifest opens a package and parses its murmur.yaml.
// readPackage reads the .mur.zip at path and its manifest; hint says what
// to pass instead when the file can't be read.
func readPackage(path, hint string) ([]byte, *artifact.Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		code := artifact.CodeIO
		if errors.Is(err, fs.ErrNotExist) {
			code = artifact.CodeNotFound
		}
		return nil, nil, &diag.Error{Code: code, Err: err, Msg: fmt.Sprintf("cannot read %s: %v", path, unwrapPath(err)), Hint: hint}
	}
	m, err := packedManifest(path, data)
	if err != nil {
		return nil, nil, err
	}
	return data, m, nil
}

func packedManifest(path string, data []byte) (*artifact.Manifest, error) {
	wrap := func(err error) error {
		return diag.Wrap(artifact.CodeIO, err, "failed to parse murmur.yaml in %s: %v", path, err).
			WithHint("rebuild the package with 'mur build'")
	}
	pkg, err := artifact.Open(data, artifact.MaxDecompressedBytes(os.Getenv))
	if err != nil {
		return nil, wrap(err)
	}
	raw, err := pkg.Manifest()
	var big *manifestio.SizeError
	if errors.As(err, &big) {
		return nil, manifestio.TooLarge("murmur.yaml in "+path, big.Size())
	}
	if err != nil {
		return nil, wrap(err)
	}
	m, _, err := parseArtifactManifest(raw, artifact.ManifestEntry)
	if err != nil {
		return nil, wrap(err)
	}
	return m, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
