package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/policy"
)

// grantFlags are the WASI capability flags of "mur wasm call" and "mur
// wasm run". Nothing is granted unless a flag says so.
type grantFlags struct {
	dirs     []string
	env      []string
	allowNet []string
	stdin    string
}

const grantsHelp = `

Capabilities: the component reaches nothing the flags don't grant. It gets
no directories, no environment (not even the caller's), no network and an
empty stdin unless --dir, --env, --allow-net and --stdin say otherwise.`

func (g *grantFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&g.dirs, "dir", nil, "preopen host directory HOST as GUEST: HOST[::GUEST][:ro] (repeatable; read-write unless :ro)")
	f.StringArrayVar(&g.env, "env", nil, "set guest environment variable KEY=VALUE (repeatable; nothing is inherited)")
	f.StringArrayVar(&g.allowNet, "allow-net", nil, "allow HTTP requests matching a Murmur network rule: host, host:port or http[s]://host[:port], e.g. api.example.com or https://api.example.com:8443; one exact host each, no wildcards (repeatable)")
	f.StringVar(&g.stdin, "stdin", "", "file whose contents are the guest's stdin (default: empty)")
}

// grants turns the flags into WASI grants writing the guest's stdout and
// stderr to the given writers.
func (g *grantFlags) grants(cmd *cobra.Command, stdout, stderr io.Writer) (wasip2.Grants, error) {
	out := wasip2.Grants{
		Stdout: wasip2.Output{W: stdout},
		Stderr: wasip2.Output{W: stderr},
	}
	for _, d := range g.dirs {
		dg, err := wasip2.ParseDirGrant(d)
		if err != nil {
			return out, usagef(cmd, "--dir: %v", err)
		}
		if st, err := os.Stat(dg.Host); err != nil || !st.IsDir() {
			return out, usagef(cmd, "--dir %s: %s is not a directory on this machine", d, dg.Host)
		}
		out.Dirs = append(out.Dirs, dg)
	}
	for _, e := range g.env {
		kv, err := wasip2.ParseEnv(e)
		if err != nil {
			return out, usagef(cmd, "--env: %v", err)
		}
		out.Env = append(out.Env, kv)
	}
	rules, err := policy.ParseNetRules(g.allowNet)
	if err != nil {
		return out, usagef(cmd, "--allow-net: %v", err)
	}
	out.Net = rules
	if g.stdin != "" {
		b, err := os.ReadFile(g.stdin)
		if err != nil {
			return out, usagef(cmd, "--stdin: %v", err)
		}
		out.Stdin = b
	}
	return out, nil
}

// guestExitError carries the status a guest passed to wasi:cli/exit, which
// becomes mur's exit status.
type guestExitError struct {
	code uint32
}

func (e *guestExitError) Error() string { return fmt.Sprintf("guest exited with status %d", e.code) }

// exitStatus maps a guest's exit code to a process status; a non-zero code
// never becomes 0 by truncation.
func (e *guestExitError) exitStatus() int {
	if e.code != 0 && e.code&0xff == 0 {
		return exitFailure
	}
	return int(e.code & 0xff)
}
