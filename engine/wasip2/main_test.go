package wasip2_test

import (
	"os"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// TestMain fails the run if a test wrote to the user's home: engines here
// compile through testguest.CacheDir, never the default user cache.
func TestMain(m *testing.M) { os.Exit(testguest.Main(m)) }
