// Command mur runs Murmur capsules; see internal/cli.
package main

import (
	"fmt"
	"os"

	"github.com/mur-go/mur/internal/cli"
	"github.com/mur-go/mur/sandbox"
)

func main() {
	// Before anything else: native tools run as the same user and must not
	// read this process's memory or /proc/<pid>/environ, where the user's
	// provider keys live (security.md §9.4). Refuse to run unprotected.
	if err := nonDumpable(); err != nil {
		fmt.Fprintf(os.Stderr, "error: cannot protect the mur process from its tools: %v\n", err)
		os.Exit(1)
	}
	// mur re-executes itself in this mode to start a native tool under
	// its rlimits; Main execs the tool and never returns.
	if len(os.Args) > 1 && os.Args[1] == sandbox.ExecMode {
		sandbox.Main(os.Args[2:])
	}
	os.Exit(cli.Execute())
}
