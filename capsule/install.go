package capsule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/mur-go/mur/internal/store/provision"
)

// InstallOptions say which capsule's artifacts Install installs and from
// where.
type InstallOptions struct {
	// Manifest is the capsule's murmur.yaml; "" is murmur.yaml in the
	// current directory.
	Manifest string
	// Registry is where the artifacts come from: a registry's URL,
	// "local" for the global store, or "" for the manifest's choice
	// (registry.remote_url or registry.default, else the global store).
	// mur's built-in artifacts (the openai-compatible, anthropic and
	// scripted drivers, the compact and guard hooks) stand behind it.
	Registry string
	// Env is read for the registry's key (NEXUS_API_KEY) and HOME; nil is
	// os.LookupEnv.
	Env func(name string) (value string, ok bool)
	// Home is the directory whose .murmur/artifacts is the global store;
	// "" is HOME from Env.
	Home string
	// Logger receives the registries' diagnostics; nil is slog.Default().
	Logger *slog.Logger
}

// Install installs every registry artifact the capsule declares into its
// project store (.murmur/artifacts beside murmur.yaml) and pins each in
// its murmur.lock, as `mur install` does: every package is checked
// against the registry's sha256 before anything is written, and one that
// murmur.lock pins to other bytes is refused (E-REG-005). A failed
// artifact does not stop the others from being installed, but then
// murmur.lock is left as it was: it pins the capsule's artifacts all
// together or not at all. The error joins every failure, each naming its
// artifact.
func Install(ctx context.Context, opts InstallOptions) error {
	path, err := filepath.Abs(manifestPath(opts.Manifest))
	if err != nil {
		return fmt.Errorf("resolving the manifest path: %w", err)
	}
	rep, err := provision.Capsule(ctx, provision.Options{Manifest: path, Registry: opts.Registry,
		Getenv: getenv(opts.Env, opts.Home), Log: logger(opts.Logger)})
	errs := []error{err}
	for i, d := range rep.Declared {
		if i < len(rep.Errs) && rep.Errs[i] != nil {
			errs = append(errs, fmt.Errorf("installing %s@%s: %w", d.Name, d.Version, rep.Errs[i]))
		}
	}
	return coded(errors.Join(errs...))
}
