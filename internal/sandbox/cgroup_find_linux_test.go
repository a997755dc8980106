package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Which mechanism a scope is built with: a delegated v2 subtree with the
// memory, pids and cpu controllers first, the v1 hierarchies on a hybrid
// host, else none with both reasons.
func TestCgroupSupport(t *testing.T) {
	dir := func(controllers string) string {
		d := t.TempDir()
		for _, f := range []string{"cgroup.subtree_control", "cgroup.procs"} {
			if err := os.WriteFile(filepath.Join(d, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, "cgroup.controllers"), []byte(controllers+"\n"), 0o444); err != nil {
			t.Fatal(err)
		}
		return d
	}
	v1 := map[string]string{"memory": t.TempDir(), "pids": t.TempDir(), "cpu": t.TempDir()}
	full, hugetlb := dir("cpuset cpu io memory hugetlb pids"), dir("hugetlb")
	super := filepath.Join(full, supervisorLeaf)
	if err := os.Mkdir(super, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		places    cgroupPlaces
		mechanism string
		reasonHas string
		noteHas   string
	}{
		{"delegated v2", cgroupPlaces{v2: full, v1: v1}, CgroupV2, "", ""},
		{"v2 after stepping aside", cgroupPlaces{v2: super}, CgroupV2, "", ""},
		{"hybrid host", cgroupPlaces{v2: hugetlb, v1: v1}, CgroupV1, "", "offers " + hugetlb + " no memory, pids, cpu controller"},
		{"nothing", cgroupPlaces{v2: hugetlb, v1: map[string]string{"memory": v1["memory"]}}, "", "no cgroup v1 pids hierarchy is mounted", ""},
		{"no v2 mount", cgroupPlaces{v1: map[string]string{}}, "", "no cgroup v2 hierarchy is mounted", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.places.support()
			if s.Mechanism != tc.mechanism || !strings.Contains(s.Reason, tc.reasonHas) || !strings.Contains(s.Note, tc.noteHas) {
				t.Errorf("support = %+v, want %q with reason ~%q, note ~%q", s, tc.mechanism, tc.reasonHas, tc.noteHas)
			}
		})
	}
}

// This host's own cgroups are found where /proc says they are.
func TestFindCgroups(t *testing.T) {
	p, err := findCgroups()
	if err != nil {
		t.Fatal(err)
	}
	for c, d := range p.v1 {
		if _, err := os.Stat(filepath.Join(d, "cgroup.procs")); err != nil {
			t.Errorf("v1 %s at %s: %v", c, d, err)
		}
	}
	if p.v2 != "" {
		if _, err := os.Stat(filepath.Join(p.v2, "cgroup.procs")); err != nil {
			t.Errorf("v2 at %s: %v", p.v2, err)
		}
	}
}
