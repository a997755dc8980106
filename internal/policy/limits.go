package policy

import "github.com/mur-go/mur/internal/format/manifest"

// Defaults the runtime applies for undeclared limits (security.md §11,
// §12; wit.md §7.1). The manifest keeps "absent" distinct from any value;
// these fill in. They are the only definition: staging and launch both
// take them from here.
const (
	DefaultMemoryBytes       = 536870912
	DefaultTableElements     = 100000
	DefaultInstances         = 1000
	DefaultDeadlineSeconds   = 600
	DefaultHookDeadlineSecs  = 30
	DefaultMaxProcesses      = 128
	DefaultMaxOpenFiles      = 1024
	DefaultMaxFileSizeBytes  = 4294967296
	DefaultCPUSeconds        = 3600
	DefaultProcMemoryBytes   = 2147483648
	DefaultCgroupMemoryBytes = 4294967296
	DefaultCgroupPidsMax     = 256
	DefaultCgroupCPUPercent  = 200
	DefaultCgroupIOBytesSec  = 104857600
	DefaultWorkdirMaxBytes   = 10737418240
)

// EffectiveLimits are the WASM guest limits with defaults applied.
type EffectiveLimits struct {
	MemoryBytes, TableElements, Instances, DeadlineSeconds uint64
}

// EffectiveResources are the native-subprocess limits with defaults applied.
type EffectiveResources struct {
	MaxProcesses, MaxOpenFiles, MaxFileSizeBytes, CPUSeconds, MemoryBytes   uint64
	CgroupMemoryBytes, CgroupPidsMax, CgroupCPUPercent, CgroupIOBytesPerSec uint64
	WorkdirMaxBytes                                                         uint64
}

func or(p *uint64, def uint64) uint64 {
	if p != nil {
		return *p
	}
	return def
}

// GuestLimits returns the limits for a guest. Hooks default to a 30 s
// deadline, but an explicitly declared deadline applies to hooks too.
// Safe on a nil c (all defaults).
func GuestLimits(c *manifest.Capabilities, hook bool) EffectiveLimits {
	var l manifest.Limits
	if c != nil && c.Limits != nil {
		l = *c.Limits
	}
	deadline := uint64(DefaultDeadlineSeconds)
	if hook {
		deadline = DefaultHookDeadlineSecs
	}
	return EffectiveLimits{
		MemoryBytes:     or(l.MemoryBytes, DefaultMemoryBytes),
		TableElements:   or(l.TableElements, DefaultTableElements),
		Instances:       or(l.Instances, DefaultInstances),
		DeadlineSeconds: or(l.DeadlineSeconds, deadline),
	}
}

// SubprocessLimits returns the native subprocess limits c declares,
// defaults filling the rest. Safe on a nil c.
func SubprocessLimits(c *manifest.Capabilities) EffectiveResources {
	var r manifest.Resources
	if c != nil && c.Resources != nil {
		r = *c.Resources
	}
	return EffectiveResources{
		MaxProcesses:        or(r.MaxProcesses, DefaultMaxProcesses),
		MaxOpenFiles:        or(r.MaxOpenFiles, DefaultMaxOpenFiles),
		MaxFileSizeBytes:    or(r.MaxFileSizeBytes, DefaultMaxFileSizeBytes),
		CPUSeconds:          or(r.CPUSeconds, DefaultCPUSeconds),
		MemoryBytes:         or(r.MemoryBytes, DefaultProcMemoryBytes),
		CgroupMemoryBytes:   or(r.CgroupMemoryBytes, DefaultCgroupMemoryBytes),
		CgroupPidsMax:       or(r.CgroupPidsMax, DefaultCgroupPidsMax),
		CgroupCPUPercent:    or(r.CgroupCPUPercent, DefaultCgroupCPUPercent),
		CgroupIOBytesPerSec: or(r.CgroupIOBytesPerSec, DefaultCgroupIOBytesSec),
		WorkdirMaxBytes:     or(r.WorkdirMaxBytes, DefaultWorkdirMaxBytes),
	}
}
