package wazero

import (
	goruntime "runtime"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/internal/platform"
)

// LoopYieldSupported (a mur patch) says whether a runtime configured by
// NewRuntimeConfigCompiler with features honours
// experimental.WithLoopYield on this platform: the compiler runs here
// (wazero falls back to the interpreter where it cannot) and implements
// the checks (amd64 only).
func LoopYieldSupported(features api.CoreFeatures) bool {
	return goruntime.GOARCH == "amd64" && platform.CompilerSupports(features)
}
