package sandbox

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// scopeRecordMagic starts every scope record; the version lets a later
// mur read what an older one wrote.
const scopeRecordMagic = "mur-scope 1"

// maxScopeLeaves bounds a record: a scope has one leaf per hierarchy
// (v2: one; v1: memory, pids, cpu and blkio).
const maxScopeLeaves = 8

// scopeRecord is what a session's scope says of itself, in an extended
// attribute of each of its leaves: who made it (for the sweep's report)
// and every leaf of the scope, so that the sweep that finds one leaf of a
// dead session's scope removes all of them, wherever its hierarchies put
// them. It is written only once the owner holds the leaves' locks, so a
// record without a lock held means the owner and its reaper are gone.
type scopeRecord struct {
	Owner  int
	Leaves []string
}

func (r scopeRecord) encode() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nowner %d\n", scopeRecordMagic, r.Owner)
	for _, l := range r.Leaves {
		fmt.Fprintf(&b, "leaf %s\n", l)
	}
	return []byte(b.String())
}

// decodeScopeRecord parses a record. The attribute can be written by
// anyone who may write the leaf, so nothing is trusted: every leaf must
// be an absolute, clean path whose name is a murmur- leaf, all of the
// same name.
func decodeScopeRecord(b []byte) (scopeRecord, error) {
	lines := strings.Split(string(b), "\n")
	if len(lines) < 3 || lines[0] != scopeRecordMagic || lines[len(lines)-1] != "" {
		return scopeRecord{}, fmt.Errorf("not a %q record", scopeRecordMagic)
	}
	lines = lines[1 : len(lines)-1]
	owner, ok := strings.CutPrefix(lines[0], "owner ")
	pid, err := strconv.Atoi(owner)
	if !ok || err != nil || pid <= 0 || strconv.Itoa(pid) != owner {
		return scopeRecord{}, fmt.Errorf("bad owner line %q", lines[0])
	}
	r := scopeRecord{Owner: pid}
	for _, line := range lines[1:] {
		leaf, ok := strings.CutPrefix(line, "leaf ")
		if !ok || !filepath.IsAbs(leaf) || filepath.Clean(leaf) != leaf || !isScopeName(filepath.Base(leaf)) {
			return scopeRecord{}, fmt.Errorf("bad leaf line %q", line)
		}
		if len(r.Leaves) > 0 && filepath.Base(leaf) != filepath.Base(r.Leaves[0]) {
			return scopeRecord{}, fmt.Errorf("leaf %q is not named as %q", leaf, r.Leaves[0])
		}
		if len(r.Leaves) == maxScopeLeaves {
			return scopeRecord{}, fmt.Errorf("more than %d leaves", maxScopeLeaves)
		}
		r.Leaves = append(r.Leaves, leaf)
	}
	if len(r.Leaves) == 0 {
		return scopeRecord{}, fmt.Errorf("no leaf")
	}
	return r, nil
}

// isScopeName says whether name is a session leaf's: murmur-…, never
// the v2 supervisor leaf the runtime itself sits in.
func isScopeName(name string) bool {
	return strings.HasPrefix(name, "murmur-") && len(name) > len("murmur-") && name != supervisorLeaf
}
