package stage

import (
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/policy"
)

func TestEngineLimits(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want component.Limits
	}{
		{"tool defaults", DefaultToolLimits(),
			component.Limits{Deadline: 600 * time.Second, MaxMemoryBytes: 512 << 20, MaxTableElements: 100000, MaxInstances: 1000}},
		{"engine clamps", EngineLimits(policy.EffectiveLimits{MemoryBytes: 1, TableElements: 1 << 40, Instances: 1 << 40, DeadlineSeconds: 1}),
			component.Limits{Deadline: time.Second, MaxMemoryBytes: 1, MaxTableElements: 1<<32 - 1, MaxInstances: 1<<31 - 1}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}
