package cli

import (
	"math"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mur-go/mur/engine/component"
)

// limitFlags are the resource limits of "mur wasm call" and "mur wasm run".
type limitFlags struct {
	deadline  float64 // seconds; 0 = none
	maxMemory uint64  // MiB; 0 = unlimited
}

func (l *limitFlags) register(f *pflag.FlagSet) {
	f.Float64Var(&l.deadline, "deadline", 0, "wall-clock limit in seconds, fractions allowed (0 = none)")
	f.Uint64Var(&l.maxMemory, "max-memory", 0, "limit on the component's linear memory in MiB (0 = unlimited)")
}

// limits turns the flags into store limits.
func (l *limitFlags) limits(cmd *cobra.Command) (component.Limits, error) {
	var out component.Limits
	d := l.deadline
	if d < 0 || math.IsNaN(d) || d >= math.MaxInt64/float64(time.Second) {
		return out, usagef(cmd, "--deadline must be a number of seconds from 0 (none) to about 292 years, got %v", d)
	}
	out.Deadline = time.Duration(d * float64(time.Second))
	if d > 0 && out.Deadline == 0 {
		out.Deadline = 1 // too short to count in nanoseconds, but still a deadline, not none
	}
	if l.maxMemory > math.MaxUint64>>20 {
		return out, usagef(cmd, "--max-memory %d MiB is too large", l.maxMemory)
	}
	out.MaxMemoryBytes = l.maxMemory << 20
	return out, nil
}
