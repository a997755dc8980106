//go:build wasip1

// Command driver-anthropic is the anthropic inference driver: a
// reactor exporting murmur:tool/run@0.2.0 that answers each runtime
// request with one Messages API call (package anthropic) over wasi:http.
package main

import (
	"unsafe"

	"github.com/mur-go/mur/guests/go/anthropic"
	"github.com/mur-go/mur/guests/go/cabi"
	"github.com/mur-go/mur/guests/go/driverkit"
)

// main is required of package main even in c-shared mode, where it never runs.
func main() {}

// init readies the driver for the snapshot the runtime takes of the
// initialised instance (driverkit.Ready).
func init() { driverkit.Ready(anthropic.Provider{}, anthropic.Samples) }

//go:wasmexport murmur:tool/run@0.2.0#run
func run(dataSome uint32, dataPtr unsafe.Pointer, dataLen uint32,
	logSome uint32, logPtr unsafe.Pointer, logLen uint32) unsafe.Pointer {
	return driverkit.Export(anthropic.Provider{}, dataSome, dataPtr, dataLen)
}

//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) { cabi.Unpin() }
