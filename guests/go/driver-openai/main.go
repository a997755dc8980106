//go:build wasip1

// Command driver-openai is the openai-compatible inference driver: a
// reactor exporting murmur:tool/run@0.2.0 that answers each runtime
// request with one Chat Completions call (package openai) over wasi:http.
package main

import (
	"unsafe"

	"github.com/mur-go/mur/guests/go/cabi"
	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/openai"
)

// main is required of package main even in c-shared mode, where it never runs.
func main() {}

// init readies the driver for the snapshot the runtime takes of the
// initialised instance (driverkit.Ready).
func init() { driverkit.Ready(openai.Provider{}, openai.Samples) }

//go:wasmexport murmur:tool/run@0.2.0#run
func run(dataSome uint32, dataPtr unsafe.Pointer, dataLen uint32,
	logSome uint32, logPtr unsafe.Pointer, logLen uint32) unsafe.Pointer {
	return driverkit.Export(openai.Provider{}, dataSome, dataPtr, dataLen)
}

//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) { cabi.Unpin() }
