package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/registry"
)

const registryServeLong = `Serve a directory registry over the Nexus HTTP protocol, so a team can
publish to and install from one place:

  POST /v1/artifacts?name=&version=&runtime=[&platform=os-arch]   publish
  GET  /v1/artifacts/{name}/{version}[?platform=os-arch]          download
  GET  /v1/artifacts                                              index

The directory has the layout of the global store, so --dir ~/.murmur/artifacts
serves what 'mur publish --registry local' put there. Every request must
carry "Authorization: Bearer $NEXUS_API_KEY"; set NEXUS_API_KEY for the
server and give the same value to its clients. Published versions are
never overwritten, and uploads are checked to be real .mur.zip packages
whose murmur.yaml names the version being published.

Stops cleanly on Ctrl-C.`

const registryServeExample = `  export NEXUS_API_KEY=$(openssl rand -hex 16)
  mur registry serve --dir /srv/murmur-registry --addr 0.0.0.0:7800
  # on a client, with the same NEXUS_API_KEY:
  mur publish --registry http://registry-host:7800
  mur install hello-tool@0.1.0 --registry http://registry-host:7800`

func newRegistryCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:                        "registry",
		Short:                      "Host an artifact registry",
		Long:                       "Host a Nexus-protocol artifact registry for 'mur publish' and 'mur install'.",
		Args:                       cobra.ArbitraryArgs,
		RunE:                       runGroup,
		SuggestionsMinimumDistance: 2,
	}
	cmd.AddCommand(newRegistryServeCommand(a))
	return cmd
}

func newRegistryServeCommand(a *app) *cobra.Command {
	var dir, addr string
	cmd := &cobra.Command{
		Use:     "serve",
		Short:   "Serve a directory registry over HTTP (the Nexus protocol)",
		Long:    registryServeLong,
		Example: registryServeExample,
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.serveRegistry(cmd.Context(), dir, addr)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "registry directory (default ~/.murmur/artifacts)")
	cmd.Flags().StringVar(&addr, "addr", "", "listen address (default $NEXUS_BIND, else 127.0.0.1:7800)")
	return cmd
}

func (a *app) serveRegistry(ctx context.Context, dir, addr string) error {
	key := os.Getenv(registry.APIKeyEnv)
	if key == "" {
		return &diag.Error{Code: registry.CodeIO, Err: registry.ErrAuth,
			Msg:  "NEXUS_API_KEY is required to serve a registry",
			Hint: "export NEXUS_API_KEY=<secret> (e.g. openssl rand -hex 16) and give clients the same value"}
	}
	if dir == "" {
		g, err := registry.GlobalRoot(os.Getenv)
		if err != nil {
			return err
		}
		dir = g
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return &diag.Error{Code: artifact.CodeIO, Err: err, Msg: err.Error()}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &diag.Error{Code: artifact.CodeIO, Err: err, Msg: fmt.Sprintf("cannot create registry directory %s: %v", dir, err)}
	}
	if addr == "" {
		addr = os.Getenv("NEXUS_BIND")
	}
	if addr == "" {
		addr = "127.0.0.1:7800"
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return &diag.Error{Code: artifact.CodeIO, Err: err, Msg: fmt.Sprintf("cannot listen on %s: %v", addr, err),
			Hint: "choose another address with --addr host:port (is another registry already running?)"}
	}
	srv := &http.Server{
		Handler:           registry.NewServer(dir, registry.WithAPIKey(key), registry.WithLogger(a.log)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(a.stdout, "Serving registry %s on http://%s\n", dir, ln.Addr())
	fmt.Fprintf(a.stdout, "  clients: NEXUS_API_KEY=… mur publish --registry http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return &diag.Error{Code: artifact.CodeIO, Err: err, Msg: "registry server stopped: " + err.Error()}
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return &diag.Error{Code: artifact.CodeIO, Err: err, Msg: "stopping the registry server: " + err.Error()}
	}
	fmt.Fprintln(a.stdout, "Registry stopped.")
	return nil
}
