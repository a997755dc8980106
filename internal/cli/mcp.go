package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/serve/mcp"
	runsession "github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

const mcpServeLong = `Serve a capsule's tools to an MCP client (Claude Code, Cursor, any client
of the Model Context Protocol): its WASM and native tools, the commands
of capabilities.shell.allow and its skills (as tools, and as prompts),
the tool list its own model would be shown. The capsule is staged as
'mur run' stages it, script or agent capsule, in a new session directory
(or --workdir), but neither its component nor its model runs: each call
goes through the agent loop's dispatch, under the capsule's grants and
containment, with its on-tool-call and on-shell hooks, its secrets
redacted from the answer, and a record in the session's trace.jsonl, as
if its own model had made it. Calls run one at a time.

Over stdio (the default) the client starts mur and speaks JSON-RPC on
its stdin and stdout; the session ends, status ok, when the client
closes stdin. Nothing but the protocol is written to stdout: the
capsule's own output and mur's messages go to stderr.

--http ADDR serves streamable HTTP on ADDR (HOST:PORT; an empty host is
127.0.0.1, port 0 picks a free one) and prints the endpoint's URL,
http://HOST:PORT/mcp, alone on stdout once it takes calls. Every request
must carry "Authorization: Bearer TOKEN", compared in constant time
before any of its body is read; a request without it is answered 401.
The token is MURMUR_MCP_TOKEN, or the contents of --token-file (a file
only its owner may read: chmod 600); without either, mur makes one and
writes it to ~/.murmur/mcp/<session id>.token (0600, in a directory of
yours alone), names that file on stderr, and removes it when it stops.
A token is at least 16 printable ASCII characters. The HTTP server takes
the A2A server's bounds: a request body is at most 1 MiB, read whole
(after the token check) within 30 s, bodies over 16 KiB share 16 MiB;
headers get 10 s and 64 KiB, an idle connection 120 s; 512 connections,
128 from one address; an MCP session idle for an hour is ended. A HOST
beyond loopback (0.0.0.0, a LAN address) makes the tools reachable from
other machines over plain HTTP, token and all: put a TLS proxy in front.

Stopping mur (Ctrl-C, SIGTERM) ends the session "cancelled" and exits
130 or 143; a call that ends the session as it would end an agent run
(the workdir ceiling, a sandbox that cannot be built, a trace write)
ends it "failed", exit 1.`

// mcpServeOptions are the flags of "mur mcp serve".
type mcpServeOptions struct {
	manifest, workdir, containment string
	http, tokenFile                string
	noEnvFile, noCgroup            bool
}

func newMCPCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve a capsule's tools over the Model Context Protocol",
		Args:  cobra.ArbitraryArgs,
		RunE:  runGroup,
		// "mur mcp server" is a likely slip.
		SuggestionsMinimumDistance: 2,
	}
	cmd.AddCommand(newMCPServeCommand(a))
	return cmd
}

func newMCPServeCommand(a *app) *cobra.Command {
	var opts mcpServeOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve a capsule's tools to an MCP client, over stdio or HTTP",
		Long:  mcpServeLong,
		Example: `  claude mcp add agent -- mur mcp serve --manifest ~/src/mur-go/examples/agent/murmur.yaml --workdir .
  mur mcp serve --http 127.0.0.1:0 --token-file ~/.config/mur/mcp.token`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			off, err := noCgroupFromEnv(os.Getenv(noCgroupEnv))
			if err != nil {
				return &usageError{cmd, err}
			}
			opts.noCgroup = opts.noCgroup || off
			m, err := opts.check(cmd)
			if err != nil {
				return &usageError{cmd, err}
			}
			return serveMCP(cmd.Context(), a, cmd, opts, m)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.manifest, "manifest", manifest.FileName, "the capsule manifest, relative to the current directory")
	f.StringVar(&opts.workdir, "workdir", "", "an existing directory to use as the capsule's workdir, where its tools work (default: a new one under <manifest dir>/workdir)")
	f.StringVar(&opts.http, "http", "", "serve streamable HTTP on HOST:PORT (127.0.0.1:0 picks a port) instead of stdio, behind a bearer token")
	f.StringVar(&opts.tokenFile, "token-file", "", "with --http: the file holding the bearer token (mode 0600), in place of MURMUR_MCP_TOKEN or a generated one")
	f.StringVar(&opts.containment, "containment", "", "the weakest containment class the session accepts: advisory, scoped or sealed (the strongest of this and capabilities.containment applies)")
	f.BoolVar(&opts.noEnvFile, "no-env-file", false, "do not load .env from the manifest's directory or its ancestors")
	f.BoolVar(&opts.noCgroup, "no-cgroup", false, "operator's downgrade for hosts that delegate no cgroup: run the capsule's native tools and shell commands without the session's cgroup scope (W-SEC-010 says so) instead of refusing it E-RUN-012; also MUR_NO_CGROUP=1")
	return cmd
}

// check refuses a command line `mur mcp serve` cannot take (exit 2)
// before anything is read or staged, and returns the MCP settings: the
// token, from MURMUR_MCP_TOKEN or --token-file, or where to keep the
// one mur makes.
func (o *mcpServeOptions) check(cmd *cobra.Command) (runsession.MCPOptions, error) {
	m := runsession.MCPOptions{HTTP: o.http}
	if err := policy.ContainmentFlag(o.containment); err != nil {
		return m, err
	}
	if o.workdir != "" {
		if err := stage.CheckWorkdir(o.workdir); err != nil {
			return m, err
		}
	}
	if f := cmd.Flags().Lookup("http"); f.Changed && o.http == "" {
		return m, errors.New("--http needs HOST:PORT (127.0.0.1:0 picks a port); leave it out to serve over stdio")
	}
	env := os.Getenv(mcp.TokenEnv)
	switch {
	case o.http == "" && o.tokenFile != "":
		return m, errors.New("--token-file is for --http: over stdio the client that starts mur is the only one it talks to")
	case o.http == "":
		return m, nil
	case o.tokenFile != "" && env != "":
		return m, fmt.Errorf("both %s and --token-file give a token; leave one out", mcp.TokenEnv)
	case o.tokenFile != "":
		token, err := mcp.ReadTokenFile(o.tokenFile)
		if err != nil {
			return m, err
		}
		m.Token = token
	case env != "":
		if err := mcp.CheckToken(env); err != nil {
			return m, fmt.Errorf("%s: %w", mcp.TokenEnv, err)
		}
		m.Token = env
	default:
		home, err := os.UserHomeDir()
		if err != nil {
			return m, fmt.Errorf("no home directory to keep a generated token in (%v): set %s or pass --token-file", err, mcp.TokenEnv)
		}
		m.TokenDir = filepath.Join(home, ".murmur", "mcp")
	}
	return m, nil
}

// serveMCP serves the tools (package session) and reports on stderr how
// the session ended; stdout carries the protocol, or the URL alone.
func serveMCP(ctx context.Context, a *app, cmd *cobra.Command, o mcpServeOptions, m runsession.MCPOptions) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locating the mur binary to start native tools through: %w", err)
	}
	m.In, m.Out = os.Stdin, a.stdout
	// The URL goes out last: whoever waits for it finds the token file
	// named already.
	m.OnServing = func(s *stage.Staged, url, tokenFile string) {
		where := cmp.Or(url, "stdio")
		fmt.Fprintf(a.stderr, "mur: serving the tools of %s v%s over MCP on %s (session %s, workdir %s)\n",
			s.Capsule.Name, s.Capsule.Version, where, s.ID, s.AccessibleDir)
		if tokenFile != "" {
			fmt.Fprintf(a.stderr, "mur: the bearer token is in %s; clients send \"Authorization: Bearer <its contents>\"\n", tokenFile)
		}
		if url != "" {
			fmt.Fprintln(a.stdout, url)
		}
	}
	so := a.sessionOptions(self)
	so.ManifestPath, so.NoEnvFile, so.Workdir = o.manifest, o.noEnvFile, o.workdir
	so.Containment, so.NoCgroup = o.containment, o.noCgroup
	res, err := runsession.ServeMCP(ctx, so, m)
	if s := res.Session; s != nil {
		fmt.Fprintf(a.stderr, "mur: session %s ended %s; trace: %s\n", s.ID, res.Status, filepath.Join(s.SessionDir, "trace.jsonl"))
	}
	err = asCancelled(ctx, err)
	if errors.Is(err, runsession.ErrOption) {
		return &usageError{cmd, err}
	}
	return err
}
