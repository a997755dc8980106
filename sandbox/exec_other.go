//go:build !unix

package sandbox

import (
	"fmt"
	"os"
)

// memoryLimitName names nothing here: no rlimits exist.
const memoryLimitName = "memory limit"

// Main refuses: this platform has no rlimits, so no native subprocess may
// start as if it had them.
func Main([]string) {
	fmt.Fprintln(os.Stderr, "mur: native subprocess not started: this platform has no rlimits to apply capabilities.resources with")
	os.Exit(127)
}
