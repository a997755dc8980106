package manifest

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/wasip2"
)

// Staging-time checks. Murmur validates network rules and scopes when it
// stages a session, not when it parses, so a manifest with a bad rule still
// loads (for `mur install`, `mur doctor`); these functions give the stager
// the same errors with the manifest position attached.

// NetworkRules parses network.allow with the runtime's rule parser
// (wasip2.ParseNetRule, so one entry cannot mean two things). path names
// the block for messages, e.g. "capabilities" or "artifacts[1].capabilities".
// A nil receiver or absent network block yields no rules.
func (c *Capabilities) NetworkRules(path string) ([]wasip2.NetRule, error) {
	if c == nil || c.Network == nil {
		return nil, nil
	}
	rules := make([]wasip2.NetRule, 0, len(c.Network.Allow))
	var errs []error
	for i, e := range c.Network.Allow {
		r, err := wasip2.ParseNetRule(e)
		if err != nil {
			var ne *wasip2.NetRuleError
			msg := err.Error()
			if errors.As(err, &ne) {
				msg = ne.Error()
			}
			var p Pos
			if i < len(c.Network.AllowPos) {
				p = c.Network.AllowPos[i]
			}
			errs = append(errs, &Error{Code: CodeNetRule, Path: index(join(path, "network.allow"), i), Line: p.Line, Column: p.Column,
				Msg: msg, Err: err,
				Hint: "write https://host[:port], http://host[:port], host or host:port — no paths, queries or wildcards"})
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
func Covers(c, n wasip2.NetRule) bool {
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
func (c *Capsule) ArtifactNetwork(a *ArtifactRef) (rules []wasip2.NetRule, inherit bool, warns []Warning, err error) {
	ceiling, err := c.Capabilities.NetworkRules("capabilities")
	if err != nil {
		return nil, false, nil, err
	}
	idx := c.artifactIndex(a)
	path := index("artifacts", idx) + ".capabilities"
	switch a.Runtime {
	case RuntimeSkill:
		return nil, false, nil, nil
	case RuntimeHook:
		own, err := a.Capabilities.NetworkRules(path)
		return own, false, nil, err
	}
	if a.Capabilities == nil || a.Capabilities.Network == nil {
		return ceiling, true, nil, nil
	}
	own, err := a.Capabilities.NetworkRules(path)
	if err != nil {
		return nil, false, nil, err
	}
	kept := make([]wasip2.NetRule, 0, len(own))
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
		warns = append(warns, Warning{Code: WarnNetworkDropped, Path: path + ".network.allow", Line: p.Line, Column: p.Column,
			Msg: fmt.Sprintf("artifact '%s' declares capabilities.network.allow entries the capsule-wide ceiling does not allow (%s) — they are dropped, since per-artifact capabilities can only narrow",
				a.Name, strings.Join(dropped, ", ")),
			Hint: "add them to the top-level capabilities.network.allow, or remove them here"})
	}
	return kept, false, warns, nil
}

func (c *Capsule) artifactIndex(a *ArtifactRef) int {
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

// CheckScope validates filesystem.scope (E-CAP-002): it must be relative
// and must not climb out of the workdir with "..". path names the block.
func (c *Capabilities) CheckScope(path string) error {
	s := c.Scope()
	if s == "" {
		return nil
	}
	fail := func(reason string) error {
		p := c.Filesystem.ScopePos
		return &Error{Code: CodeScope, Path: join(path, "filesystem.scope"), Line: p.Line, Column: p.Column,
			Msg:  fmt.Sprintf("invalid filesystem scope '%s': %s", s, reason),
			Hint: "use a path inside the workdir such as `.` or `data/out`"}
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) {
		return fail("scope must be relative to the workdir")
	}
	if filepath.VolumeName(s) != "" {
		return fail("scope must not contain absolute or prefixed components")
	}
	depth := 0
	for _, comp := range strings.Split(filepath.ToSlash(s), "/") {
		switch comp {
		case "", ".":
		case "..":
			if depth == 0 {
				return fail("scope cannot escape the workdir via '..'")
			}
			depth--
		default:
			depth++
		}
	}
	return nil
}
