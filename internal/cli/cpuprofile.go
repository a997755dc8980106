package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// cpuProfileEnv names a file "mur run" writes a CPU profile of the whole
// run to: the way to see where a served capsule's per-task time goes
// (bench/a2a/README.md). Unset, nothing is profiled.
const cpuProfileEnv = "MUR_CPUPROFILE"

// startCPUProfile starts the profile MUR_CPUPROFILE asks for and returns
// the function that stops it and closes the file.
func startCPUProfile() (stop func() error, err error) {
	path := os.Getenv(cpuProfileEnv)
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("creating the CPU profile %s=%s: %w", cpuProfileEnv, path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting the CPU profile %s=%s: %w", cpuProfileEnv, path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("writing the CPU profile %s: %w", path, err)
		}
		return nil
	}, nil
}
