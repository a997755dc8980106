package wasip2

import "strings"

// lastName splits a path checked by checkPath into the directory holding
// its last component and that component, the way rename(2) and
// utimensat(2) see a path relative to a directory descriptor. slash
// reports trailing slashes (they ask for a directory, and make utimensat
// follow a link); ok is false when the last component is "." or "..",
// which name no entry of a parent, so a call on the parent's descriptor
// must never see them.
func lastName(p string) (parent, name string, slash, ok bool) {
	trimmed := strings.TrimRight(p, "/")
	slash = len(trimmed) < len(p)
	parent, name = ".", trimmed
	if i := strings.LastIndexByte(trimmed, '/'); i >= 0 {
		parent, name = trimmed[:i+1], trimmed[i+1:]
	}
	return parent, name, slash, name != "" && name != "." && name != ".."
}
