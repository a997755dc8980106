package firstparty_test

import (
	"os"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

func TestMain(m *testing.M) { os.Exit(testguest.Main(m)) }
