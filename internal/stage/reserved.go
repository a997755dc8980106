package stage

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/agent/transcript"
	"github.com/mur-go/mur/internal/base/diag"
)

// TraceFile is the session's trace, in the session workdir.
const TraceFile = "trace.jsonl"

// reserved are the runtime's own entries directly under a guest-visible
// directory: what it executes or trusts later, and the records of what
// every guest and the model said, must be out of every WASM guest's
// reach (security.md §4, §8). Under the session workdir that is tools/,
// trace.jsonl and transcript.jsonl; under a --workdir it is all of
// .murmur/, every session's bookkeeping.
func reserved(sessionBase, userWorkdir bool) []string {
	if userWorkdir && !sessionBase {
		return []string{".murmur"}
	}
	return []string{"tools", TraceFile, transcript.FileName}
}

// checkReservedScope refuses a filesystem.scope that names or lies inside
// a reserved entry: such a preopen would hand a guest what hiding keeps
// from it. The scope is already validated (relative, no escape).
func checkReservedScope(scope, where string, sessionBase, userWorkdir bool) error {
	if scope == "" {
		return nil
	}
	first, _, _ := strings.Cut(path.Clean(filepath.ToSlash(scope)), "/")
	if !slices.Contains(reserved(sessionBase, userWorkdir), first) {
		return nil
	}
	return &diag.Error{Code: CodeScope,
		Msg:  fmt.Sprintf("invalid filesystem scope '%s' in %s: '%s' is reserved for the runtime (staged tools and the trace) and hidden from guests", scope, where, first),
		Hint: "scope the artifact to a directory of its own (for example 'data'); tools/, trace.jsonl, transcript.jsonl and .murmur/ belong to the runtime"}
}

// HiddenUnder lists the entries directly under dir (a directory a WASM
// guest gets as a preopen) that the guest must neither see nor reach, nor
// create (wasip2.DirGrant.Hide): the first element of every path below
// dir that the runtime keeps for itself (tools/, trace.jsonl,
// transcript.jsonl, a --workdir's .murmur/) or trusts at the next run
// (trustedPaths: the manifest, .env, murmur.lock, ... when the workdir
// holds them).
func (w Workdir) HiddenUnder(dir string) []string {
	protected := []string{w.ToolsDir, filepath.Join(w.SessionDir, TraceFile), filepath.Join(w.SessionDir, transcript.FileName)}
	if w.UserWorkdir {
		protected = append(protected, filepath.Join(w.AccessibleDir, ".murmur"))
	}
	for _, t := range w.trusted {
		protected = append(protected, t.Path)
	}
	var hide []string
	at := anchorAt(dir)
	for _, p := range protected {
		first, in := at.holds(p)
		if !in || first == "" {
			continue
		}
		if !slices.Contains(hide, first) {
			hide = append(hide, first)
		}
	}
	return hide
}
