package artifact

import "strings"

// Warning is a non-fatal finding (W-BLD-*, W-SEC-004) printed while a build
// goes on.
type Warning struct {
	Code string // e.g. "W-BLD-002"
	Msg  string
	Hint string
}

const diagnosticsDoc = "https://docs.murmur.nexus/murmur-nexus/murmur/reference/diagnostics/#"

// String renders Murmur's form: "warning[CODE]: msg", then the hint and the
// documentation link on "  → " lines.
func (w Warning) String() string {
	s := "warning[" + w.Code + "]: " + w.Msg
	if w.Hint != "" {
		s += "\n  → " + w.Hint
	}
	return s + "\n  → " + diagnosticsDoc + strings.ToLower(w.Code)
}
