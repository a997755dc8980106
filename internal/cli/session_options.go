package cli

import (
	"fmt"
	"os"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	runsession "github.com/mur-go/mur/internal/session"
)

// sessionOptions are what every command that runs a session without
// printing it (mur eval run, mur mcp serve) gives it: mur's trampoline and
// version, the compilation cache, and the capsule's output and the
// warnings on stderr, since stdout is the command's own.
func (a *app) sessionOptions(self string) runsession.Options {
	return runsession.Options{
		Trampoline:     self,
		RuntimeVersion: murVersion(),
		CacheDir:       os.Getenv(cacheDirEnv),
		Stdout:         a.stderr,
		Stderr:         a.stderr,
		Log:            a.log,
		OnWarning:      func(w manifest.Warning) { fmt.Fprintln(a.stderr, w.String()) },
		OnSecurityWarning: func(w manifest.Warning) {
			fmt.Fprintln(a.stderr, policy.LaunchLine(policy.StderrPrefix, w))
		},
	}
}
