package policy

import "testing"

func TestLimits(t *testing.T) {
	declared := parseCapsule(t, `name: c
version: "1"
capabilities:
  limits: {memory_bytes: 1024, table_elements: 10, instances: 5, deadline_seconds: 60}
  resources:
    max_processes: 1
    max_open_files: 2
    max_file_size_bytes: 3
    cpu_seconds: 4
    memory_bytes: 5
    cgroup_memory_bytes: 6
    cgroup_pids_max: 7
    cgroup_cpu_percent: 8
    cgroup_io_bytes_per_sec: 9
    workdir_max_bytes: 10
`).Capabilities
	minimal := parseCapsule(t, "name: hello\nversion: \"0.1.0\"\n").Capabilities
	for _, tc := range []struct {
		name string
		got  any
		want any
	}{
		{"declared limits", GuestLimits(declared, true), EffectiveLimits{1024, 10, 5, 60}},
		{"declared resources", SubprocessLimits(declared), EffectiveResources{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"default limits", GuestLimits(minimal, false), EffectiveLimits{536870912, 100000, 1000, 600}},
		{"hook deadline", GuestLimits(minimal, true).DeadlineSeconds, uint64(30)},
		{"default resources", SubprocessLimits(minimal),
			EffectiveResources{128, 1024, 4294967296, 3600, 2147483648, 4294967296, 256, 200, 104857600, 10737418240}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}
