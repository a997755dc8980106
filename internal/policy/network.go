package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// NetworkRules parses network.allow with the one rule parser
// (ParseNetRule, so one entry cannot mean two things). Murmur checks rules
// when it stages a session, not when it parses, so a manifest with a bad
// rule still loads; the error carries the manifest position all the same.
// path names the block for messages, e.g. "capabilities" or
// "artifacts[1].capabilities". A nil c or absent network block yields no
// rules.
func NetworkRules(c *manifest.Capabilities, path string) (Rules, error) {
	if c == nil || c.Network == nil {
		return nil, nil
	}
	rules := make(Rules, 0, len(c.Network.Allow))
	var errs []error
	for i, e := range c.Network.Allow {
		r, err := ParseNetRule(e)
		if err != nil {
			var p manifest.Pos
			if i < len(c.Network.AllowPos) {
				p = c.Network.AllowPos[i]
			}
			at := manifest.At("", fmt.Sprintf("%s[%d]", strings.TrimPrefix(path+".network.allow", "."), i), p.Line, p.Column)
			errs = append(errs, err.(*diag.Error).At(at))
			continue
		}
		rules = append(rules, r)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return rules, nil
}

// Covers reports whether ceiling rule c admits everything narrower rule n
// does: same host; if c pins a scheme, n has the same one; if c pins a
// port, n has that port. So a bare host is not covered by https://host.
func Covers(c, n NetRule) bool {
	if c.Host != n.Host {
		return false
	}
	if c.Scheme != "" && c.Scheme != n.Scheme {
		return false
	}
	if c.HasPort && (!n.HasPort || c.Port != n.Port) {
		return false
	}
	return true
}

// ArtifactNetwork returns the network rules a declared artifact runs with,
// and the W-SEC-007 warning when some of its entries fall outside the
// ceiling. inherit is true when the artifact simply uses the ceiling.
//
//   - hook: exactly its own entries (not clamped); none when undeclared.
//   - tool/driver: the ceiling when undeclared; else its entries covered
//     by a ceiling rule (uncovered ones dropped with the warning).
//   - skill: no network.
func ArtifactNetwork(c *manifest.Capsule, a *manifest.ArtifactRef) (rules Rules, inherit bool, warns []manifest.Warning, err error) {
	ceiling, err := NetworkRules(c.Capabilities, "capabilities")
	if err != nil {
		return nil, false, nil, err
	}
	path := fmt.Sprintf("artifacts[%d].capabilities", artifactIndex(c, a))
	switch a.Runtime {
	case manifest.RuntimeSkill:
		return nil, false, nil, nil
	case manifest.RuntimeHook:
		own, err := NetworkRules(a.Capabilities, path)
		return own, false, nil, err
	}
	if a.Capabilities == nil || a.Capabilities.Network == nil {
		return ceiling, true, nil, nil
	}
	own, err := NetworkRules(a.Capabilities, path)
	if err != nil {
		return nil, false, nil, err
	}
	kept := make(Rules, 0, len(own))
	var dropped []string
	for _, r := range own {
		ok := false
		for _, cr := range ceiling {
			ok = ok || Covers(cr, r)
		}
		if ok {
			kept = append(kept, r)
		} else {
			dropped = append(dropped, r.Entry)
		}
	}
	if len(dropped) > 0 {
		p := a.Capabilities.Network.Pos
		warns = append(warns, manifest.Warning{Code: manifest.WarnNetworkDropped, Path: path + ".network.allow", Line: p.Line, Column: p.Column,
			Msg: fmt.Sprintf("artifact '%s' declares capabilities.network.allow entries the capsule-wide ceiling does not allow (%s) — they are dropped, since per-artifact capabilities can only narrow",
				a.Name, strings.Join(dropped, ", ")),
			Hint: "add them to the top-level capabilities.network.allow, or remove them here"})
	}
	return kept, false, warns, nil
}

func artifactIndex(c *manifest.Capsule, a *manifest.ArtifactRef) int {
	for i := range c.Artifacts {
		if &c.Artifacts[i] == a {
			return i
		}
	}
	for i := range c.Artifacts {
		if c.Artifacts[i].Name == a.Name {
			return i
		}
	}
	return 0
}
