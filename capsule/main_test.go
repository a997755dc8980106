package capsule_test

import (
	"os"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// TestMain fails the run if a test or an example wrote to the user's
// home or cache: each gives mur a home and a cache directory of its own.
func TestMain(m *testing.M) { os.Exit(testguest.Main(m)) }
