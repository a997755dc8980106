// Command mur runs Murmur capsules; see internal/cli.
package main

import (
	"fmt"
	"os"

	"github.com/mur-go/mur/internal/cli"
	// mur re-executes itself in sandbox.ExecMode to start a native tool
	// under its limits: sandbox's init takes that mode, before most of
	// mur is even initialised, and execs the tool.
	_ "github.com/mur-go/mur/internal/sandbox"
)

func main() {
	// Before anything else: native tools run as the same user and must not
	// read this process's memory or /proc/<pid>/environ, where the user's
	// provider keys live (security.md §9.4). Refuse to run unprotected.
	if err := nonDumpable(); err != nil {
		fmt.Fprintf(os.Stderr, "error: cannot protect the mur process from its tools: %v\n", err)
		os.Exit(1)
	}
	os.Exit(cli.Execute())
}
