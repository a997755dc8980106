package component

import (
	"errors"

	"github.com/tetratelabs/wazero"
)

// newModuleConfig is the configuration of every module a store
// instantiates, built once per engine: instantiation only reads it.
// wazero makes a system context per instance for its own WASI, which
// components never import (wasip2 is the host's). Its default randomness
// is a math/rand generator seeded per instance, tens of microseconds each
// time for a source nothing reads; noRandom stands in for it.
func newModuleConfig() wazero.ModuleConfig {
	return wazero.NewModuleConfig().WithName("").WithStartFunctions().WithRandSource(noRandom{})
}

// noRandom is the randomness of wazero's system context: reading it fails,
// so a path that did consult it would show instead of getting numbers.
type noRandom struct{}

func (noRandom) Read([]byte) (int, error) {
	return 0, errors.New("wazero's own randomness is not wired: components get theirs from wasi:random")
}
