package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/engine/wit"
)

func newWasmInspectCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "inspect FILE",
		Short: "Print a component's imports and exports as a WIT world",
		Long: `Compile the component in FILE and print what it imports and exports as a
WIT world. Exported functions appear as "instance#func" names to
"mur wasm call", e.g. murmur:tool/run@0.2.0#run.`,
		Example: "  mur wasm inspect guests/out/driver-canned.wasm",
		Args:    exactArgs("FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			engine, c, err := a.compile(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer a.closeEngine(cmd.Context(), engine)
			_, err = fmt.Fprint(a.stdout, wit.Print(c.World()))
			return err
		},
	}
}
