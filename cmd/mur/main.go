// Command mur runs Murmur capsules; see internal/cli.
package main

import (
	"os"

	"github.com/mur-go/mur/internal/cli"
)

func main() {
	os.Exit(cli.Execute())
}
