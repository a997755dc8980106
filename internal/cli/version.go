package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

const wazeroModule = "github.com/tetratelabs/wazero"

func newVersionCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the versions of mur, Go and wazero",
		Args:  exactArgs(),
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(a.stdout, versionText())
			return err
		},
	}
}

// versionText reports the versions compiled into the binary: mur's module
// version ("(devel)" for a build from a source tree), the Go toolchain and
// wazero.
func versionText() string {
	mur, wazero := "(devel)", "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			mur = info.Main.Version
		}
		for _, d := range info.Deps {
			if d.Path != wazeroModule {
				continue
			}
			wazero = d.Version
			if d.Replace != nil {
				wazero += " (replaced by " + d.Replace.Path + " " + d.Replace.Version + ")"
			}
		}
	}
	return fmt.Sprintf("mur %s\ngo %s\nwazero %s\n", mur, runtime.Version(), wazero)
}
