package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"
)

// SweepStaleScopes removes the session scopes a runtime that is gone left
// behind where this process would build its own (its cgroup in each
// hierarchy, or the parent of the v2 supervisor leaf, and the murs'
// systemd transient scopes beside it when it is in one): every murmur-
// leaf there that carries a scope record and whose locks nobody holds,
// which means both its runtime and its reaper have ended (the kernel
// drops a flock with the last descriptor of its holder, however that
// died, so neither a reused pid nor another pid namespace can make a
// live scope look dead). Each such scope's processes are killed and all
// its leaves removed, under its locks, so two sweeps never race. A leaf
// without a record (a scope being created, or one an older mur made) is
// left alone, and so is, unless this process is root, a leaf of another
// uid.
func SweepStaleScopes() ([]StaleScope, error) {
	p, err := findCgroups()
	if err != nil {
		return nil, fmt.Errorf("reading this process's cgroups: %w", err)
	}
	var out []StaleScope
	seen := map[string]bool{}
	for _, base := range p.scopeBases() {
		entries, err := os.ReadDir(base)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() || !isScopeName(name) || seen[name] {
				continue
			}
			if s, ok := sweepScope(filepath.Join(base, name)); ok {
				seen[name] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// scopeBases are the directories this process builds leaves in and,
// when one is a systemd transient scope of mur's, the other such scopes
// beside it: a mur killed with its reaper leaves its session's leaf in
// its own unit, which systemd keeps while the leaf's processes live.
func (p cgroupPlaces) scopeBases() []string {
	var own []string
	if p.v2 != "" {
		own = append(own, p.v2Base())
	}
	for _, ctl := range []string{"memory", "pids", "cpu", "blkio"} {
		if d, ok := p.v1[ctl]; ok && !slices.Contains(own, d) {
			own = append(own, d)
		}
	}
	out := slices.Clone(own)
	for _, d := range own {
		if !isUnitName(filepath.Base(d)) {
			continue
		}
		entries, err := os.ReadDir(filepath.Dir(d))
		if err != nil {
			continue
		}
		for _, e := range entries {
			sib := filepath.Join(filepath.Dir(d), e.Name())
			if e.IsDir() && isUnitName(e.Name()) && !slices.Contains(out, sib) {
				out = append(out, sib)
			}
		}
	}
	return out
}

// sweepScope removes the scope leaf belongs to if it is stale; false
// when it is not (or is not this process's to judge).
func sweepScope(leaf string) (StaleScope, bool) {
	rec, err := readScopeRecord(leaf)
	if err != nil || !slices.Contains(rec.Leaves, leaf) {
		return StaleScope{}, false
	}
	var locks []*os.File
	defer func() {
		for _, f := range locks {
			f.Close()
		}
	}()
	var present []string
	for _, l := range rec.Leaves {
		f, err := openLeaf(l)
		if errors.Is(err, unix.ENOENT) {
			continue // removed already
		}
		if err != nil || !manageable(f) {
			return StaleScope{}, false
		}
		locks = append(locks, f)
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
			return StaleScope{}, false // its runtime or reaper lives
		}
		if r, err := readScopeRecord(l); err != nil || !slices.Equal(r.Leaves, rec.Leaves) {
			return StaleScope{}, false
		}
		present = append(present, l)
	}
	s := StaleScope{Name: filepath.Base(leaf), Owner: rec.Owner, Dirs: present, Killed: len(members(present))}
	s.Err = drainScope(present, cgroupDrainTimeout)
	return s, true
}

// manageable says whether this process may judge the leaf: root may, any
// other uid only its own leaves.
func manageable(f *os.File) bool {
	euid := os.Geteuid()
	var st unix.Stat_t
	return unix.Fstat(int(f.Fd()), &st) == nil && (euid == 0 || int(st.Uid) == euid)
}
