package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupDrainTimeout bounds how long Close waits for killed members to
// leave the scope before giving up on removing it.
const cgroupDrainTimeout = 5 * time.Second

// NewCgroup creates the session's scope in the cgroup this process sits
// in (the transient scope JoinSystemdScope moved it into, else the one it
// inherited) with the mechanism that cgroup offers, then locks and marks its leaves and starts its reaper (see
// Cgroup): on v2, the runtime steps aside into the supervisor leaf when
// it sits in the base itself, enables +memory +pids +cpu (+io best
// effort) for the base's children and creates the session leaf with
// memory.max, pids.max, cpu.max and io.max; on v1, a leaf of the same
// name in each of the memory, pids and cpu hierarchies with
// memory.limit_in_bytes, pids.max and cpu.cfs_quota_us/cpu.cfs_period_us
// (and the blkio throttles, best effort). Every failure wraps
// ErrNoCgroup and leaves nothing behind.
func NewCgroup(r CgroupRequest) (*Cgroup, error) {
	p, err := findCgroups()
	if err != nil {
		return nil, noCgroup(fmt.Sprintf("reading this process's cgroups: %v", err))
	}
	s := p.support()
	var c *Cgroup
	switch s.Mechanism {
	case CgroupV2:
		c, err = newV2(p, r)
	case CgroupV1:
		c, err = newV1(p, r)
	default:
		return nil, noCgroup(s.Reason)
	}
	if err != nil {
		return nil, noCgroup(err.Error())
	}
	c.note, c.unit = s.Note, ownUnit()
	if err := c.claim(); err != nil {
		c.Close()
		return nil, noCgroup(err.Error())
	}
	if c.reaper, err = startReaper(r.Reaper, c.leaves, c.locks, r.Log); err != nil {
		c.Close()
		return nil, noCgroup(err.Error())
	}
	for _, leaf := range c.leaves {
		f, err := os.OpenFile(filepath.Join(leaf, "cgroup.procs"), os.O_WRONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			c.Close()
			return nil, noCgroup(fmt.Sprintf("opening %s: %v", filepath.Join(leaf, "cgroup.procs"), err))
		}
		c.procs = append(c.procs, f)
	}
	return c, nil
}

func newV2(p cgroupPlaces, r CgroupRequest) (*Cgroup, error) {
	base := p.v2Base()
	if p.v2 == base {
		if err := stepAside(base); err != nil {
			return nil, err
		}
	}
	for _, ctl := range requiredControllers() {
		if err := writeFile(base, "cgroup.subtree_control", "+"+ctl); err != nil {
			return nil, fmt.Errorf("enabling the %s controller: %w", ctl, err)
		}
	}
	io := writeFile(base, "cgroup.subtree_control", "+io") == nil
	leaves, err := makeLeaves([]string{base}, r.SessionID)
	if err != nil {
		return nil, err
	}
	c := &Cgroup{mechanism: CgroupV2, leaves: leaves, memory: leaves[0], pids: leaves[0]}
	l := r.Limits
	for _, w := range []struct{ file, value string }{
		{"memory.max", strconv.FormatUint(l.MemoryBytes, 10)},
		{"pids.max", strconv.FormatUint(l.PidsMax, 10)},
		{"cpu.max", fmt.Sprintf("%d 100000", l.CPUPercent*1000)},
	} {
		if err := writeFile(leaves[0], w.file, w.value); err != nil {
			c.Close()
			return nil, err
		}
	}
	if dev, ok := device(r.Workdir); ok && io {
		_ = writeFile(leaves[0], "io.max", fmt.Sprintf("%s rbps=%d wbps=%d", dev, l.IOBytesPerSec, l.IOBytesPerSec)) // best effort (§12)
	}
	return c, nil
}

// stepAside moves this process out of base into the supervisor leaf, so
// base holds no process and may enable controllers for its children.
func stepAside(base string) error {
	dir := filepath.Join(base, supervisorLeaf)
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return writeFile(dir, "cgroup.procs", strconv.Itoa(os.Getpid()))
}

func newV1(p cgroupPlaces, r CgroupRequest) (*Cgroup, error) {
	var dirs []string
	where := map[string]int{} // controller → index into dirs
	for _, ctl := range requiredControllers() {
		dir := p.v1[ctl] // present: probed by support
		i := slices.Index(dirs, dir)
		if i < 0 {
			i, dirs = len(dirs), append(dirs, dir)
		}
		where[ctl] = i
	}
	leaves, err := makeLeaves(dirs, r.SessionID)
	if err != nil {
		return nil, err
	}
	c := &Cgroup{mechanism: CgroupV1, leaves: leaves, memory: leaves[where["memory"]], pids: leaves[where["pids"]]}
	l := r.Limits
	cpu := leaves[where["cpu"]]
	for _, w := range []struct{ dir, file, value string }{
		{c.memory, "memory.limit_in_bytes", strconv.FormatUint(l.MemoryBytes, 10)},
		{c.pids, "pids.max", strconv.FormatUint(l.PidsMax, 10)},
		{cpu, "cpu.cfs_period_us", "100000"},
		{cpu, "cpu.cfs_quota_us", strconv.FormatUint(l.CPUPercent*1000, 10)},
	} {
		if err := writeFile(w.dir, w.file, w.value); err != nil {
			c.Close()
			return nil, err
		}
	}
	c.blkioV1(p, r)
	return c, nil
}

// blkioV1 adds the io throttles where the blkio hierarchy lets this
// process have a leaf of the same name (best effort, §12).
func (c *Cgroup) blkioV1(p cgroupPlaces, r CgroupRequest) {
	dir, ok := p.v1["blkio"]
	dev, known := device(r.Workdir)
	if !ok || !known || slices.Contains(c.leaves, filepath.Join(dir, filepath.Base(c.leaves[0]))) {
		return
	}
	leaf := filepath.Join(dir, filepath.Base(c.leaves[0]))
	if os.Mkdir(leaf, 0o755) != nil {
		return
	}
	c.leaves = append(c.leaves, leaf)
	for _, f := range []string{"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device"} {
		_ = writeFile(leaf, f, fmt.Sprintf("%s %d", dev, r.Limits.IOBytesPerSec))
	}
}

// makeLeaves creates the session leaf in every dir under one name, the
// first serial free in all of them.
func makeLeaves(dirs []string, sessionID string) ([]string, error) {
	for serial := 0; ; serial++ {
		name := leafName(sessionID, serial)
		var made []string
		taken := false
		for _, d := range dirs {
			leaf := filepath.Join(d, name)
			err := os.Mkdir(leaf, 0o755)
			if err == nil {
				made = append(made, leaf)
				continue
			}
			for _, m := range made {
				os.Remove(m)
			}
			if !errors.Is(err, os.ErrExist) {
				return nil, fmt.Errorf("creating %s: %w", leaf, err)
			}
			taken = true
			break
		}
		if !taken {
			return made, nil
		}
	}
}

// writeFile writes value to an existing control file: a file the
// kernel does not offer (a controller not enabled) is an error, never
// created.
func writeFile(dir, name, value string) error {
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err == nil {
		_, err = f.WriteString(value)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("writing %q to %s: %w", value, p, err)
	}
	return nil
}

// device is the major:minor of the filesystem holding dir.
func device(dir string) (string, bool) {
	var st unix.Stat_t
	if dir == "" || unix.Stat(dir, &st) != nil {
		return "", false
	}
	return fmt.Sprintf("%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev)), true
}

// Counters reads the scope's limit events: oom_kill from memory.events
// (v2) or memory.oom_control (v1, the same kernel counter; memory.failcnt
// counts every charge past the limit, reclaimed or not, so it is not the
// kill count), and max from pids.events (both versions).
func (c *Cgroup) Counters() CgroupCounters {
	if c == nil {
		return CgroupCounters{}
	}
	memFile := "memory.events"
	if c.mechanism == CgroupV1 {
		memFile = "memory.oom_control"
	}
	return CgroupCounters{OOMKills: counter(filepath.Join(c.memory, memFile), "oom_kill"),
		PidsMax: counter(filepath.Join(c.pids, "pids.events"), "max")}
}

// counter is the value of key in a flat-keyed cgroup file (0 if absent).
func counter(path, key string) uint64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == key {
			n, _ := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// Close kills every process left in the scope and removes its leaves,
// then stops the reaper and releases the leaves' locks; an error says
// which leaf stayed.
func (c *Cgroup) Close() error {
	if c == nil {
		return nil
	}
	for _, f := range c.procs {
		f.Close()
	}
	c.procs = nil
	err := drainScope(c.leaves, cgroupDrainTimeout)
	c.leaves = nil
	c.reaper.stop()
	c.reaper = nil
	for _, f := range c.locks {
		f.Close()
	}
	c.locks = nil
	return err
}

// procsFiles are the leaves' cgroup.procs, for the trampoline to join.
func (c *Cgroup) procsFiles() []*os.File {
	if c == nil {
		return nil
	}
	return c.procs
}
