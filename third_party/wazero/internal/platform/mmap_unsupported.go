//go:build !(unix || windows)

package platform

import (
	"fmt"
	"os"
	"runtime"
)

var errUnsupported = fmt.Errorf("mmap unsupported on GOOS=%s. Use interpreter instead.", runtime.GOOS)

func munmapCodeSegment(code []byte) error {
	panic(errUnsupported)
}

func mmapCodeSegment(size int) ([]byte, error) {
	panic(errUnsupported)
}

func MprotectCodeSegment(b []byte) (err error) {
	panic(errUnsupported)
}

// MapCodeFile (mur patch) is not supported here: callers copy instead.
func MapCodeFile(*os.File, int64, int) ([]byte, error) {
	return nil, errUnsupported
}
