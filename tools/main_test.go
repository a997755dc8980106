package tools

import (
	"os"
	"testing"

	"github.com/mur-go/mur/internal/testguest"
	"github.com/mur-go/mur/sandbox"
)

// TestMain lets the test binary act as the rlimit trampoline, as mur
// does, and fails the run if a test wrote to the user's home: engines
// here compile through testguest.CacheDir, never the default user cache.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.ExecMode {
		sandbox.Main(os.Args[2:])
	}
	os.Exit(testguest.Main(m))
}
