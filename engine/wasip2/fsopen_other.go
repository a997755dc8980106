//go:build !unix

package wasip2

import "os"

// openNoBlock: only Unix has FIFOs that block open.
const openNoBlock = 0

func clearNonblock(*os.File) error { return nil }
