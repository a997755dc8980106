package validate

import (
	"strings"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/binary"
	"github.com/mur-go/mur/engine/wit"
)

// Rules about names (Explainer.md, "Import and Export Definitions").
const (
	ruleLabel       = "names.label"          // labels are kebab-case
	ruleExternName  = "names.extern"         // import/export names are plain or interface names
	ruleUnique      = "names.unique"         // names are strongly unique in their scope
	ruleVersion     = "names.version"        // interface versions are valid semver
	ruleSuffix      = "names.version-suffix" // versionsuffix follows a canonical version
	ruleImplements  = "names.implements"     // implements names an interface, on an instance with a plain label
	ruleAnnotation  = "names.annotation"     // [constructor]/[method]/[static] need a func of the right type
	ruleCoreNameDup = "names.core-unique"    // core export and argument names are unique
	ruleArgNameDup  = "names.arg-unique"     // instantiation argument names are unique
)

// isLabel reports whether s is a kebab-case label: fragments separated by
// single hyphens, each all-lowercase or all-uppercase letters and digits,
// the first starting with a letter.
func isLabel(s string) bool {
	if s == "" {
		return false
	}
	for i, frag := range strings.Split(s, "-") {
		if frag == "" {
			return false
		}
		lower, upper := false, false
		for j, c := range frag {
			switch {
			case c >= 'a' && c <= 'z':
				lower = true
			case c >= 'A' && c <= 'Z':
				upper = true
			case c >= '0' && c <= '9':
				if i == 0 && j == 0 {
					return false
				}
			default:
				return false
			}
		}
		if lower && upper {
			return false
		}
	}
	return true
}

// isWords is a label without acronyms: the namespace and package parts of
// an interface name.
func isWords(s string) bool { return isLabel(s) && strings.ToLower(s) == s }

// externName is a parsed import or export name.
type externName struct {
	// annotation is "constructor", "method", "static" or "" for a plain
	// label or an interface name.
	annotation string
	// resource is the resource label of an annotated name.
	resource string
	// iface: an interface name; version is its version ("" if none).
	iface   bool
	version string
}

// parseExternName checks a name against the externname grammar. It returns
// a message saying what is wrong, or "".
func parseExternName(name string) (externName, string) {
	var n externName
	if strings.HasPrefix(name, "[") {
		end := strings.IndexByte(name, ']')
		if end < 0 {
			return n, "unterminated [annotation]"
		}
		n.annotation, name = name[1:end], name[end+1:]
		switch n.annotation {
		case "constructor":
			n.resource = name
			if !isLabel(name) {
				return n, "[constructor] must be followed by a kebab-case resource label"
			}
		case "method", "static":
			r, m, ok := strings.Cut(name, ".")
			n.resource = r
			if !ok || !isLabel(r) || !isLabel(m) {
				return n, "[" + n.annotation + "] must be followed by resource.name, both kebab-case labels"
			}
		default:
			if strings.HasPrefix(n.annotation, "async") {
				return n, "async function names are not supported"
			}
			return n, "unknown annotation [" + n.annotation + "]"
		}
		return n, ""
	}
	if !strings.ContainsAny(name, ":/@") {
		if !isLabel(name) {
			return n, "not a kebab-case label (words of lowercase or uppercase letters and digits, joined by single hyphens, starting with a letter)"
		}
		return n, ""
	}
	n.iface = true
	base, version, hasVersion := strings.Cut(name, "@")
	if hasVersion {
		// A canonical version (0.2, with the rest in a version suffix) is
		// the newer spelling of the same thing.
		if !isSemver(version) && !isCanonVersion(version) {
			return n, "interface version " + version + " is neither valid semver nor a canonical version"
		}
		n.version = version
	}
	ns, rest, ok := strings.Cut(base, ":")
	pkg, iface, ok2 := strings.Cut(rest, "/")
	switch {
	case !ok || !ok2:
		return n, "an interface name has the form namespace:package/interface[@version]"
	case strings.ContainsAny(pkg, ":") || strings.ContainsAny(iface, "/"):
		return n, "nested namespaces and packages are not supported"
	case !isWords(ns) || !isWords(pkg):
		return n, "namespace and package must be lowercase kebab-case words"
	case !isLabel(iface):
		return n, "interface must be a kebab-case label"
	}
	return n, ""
}

// isSemver reports whether v is a valid Semantic Versioning 2.0 version.
func isSemver(v string) bool {
	v, build, hasBuild := strings.Cut(v, "+")
	if hasBuild && !semverIDs(build, false) {
		return false
	}
	core, pre, hasPre := strings.Cut(v, "-")
	if hasPre && !semverIDs(pre, true) {
		return false
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if !isNumeric(p) || (len(p) > 1 && p[0] == '0') {
			return false
		}
	}
	return true
}

// semverIDs checks dot-separated pre-release (numeric ones without leading
// zeros) or build identifiers.
func semverIDs(s string, pre bool) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return false
		}
		for _, c := range id {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
				return false
			}
		}
		if pre && isNumeric(id) && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}

func isNumeric(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isCanonVersion reports whether v is a canonical interface version: only
// the part of a semver that decides compatibility (1, 0.2, 0.0.3).
func isCanonVersion(v string) bool {
	parts := strings.Split(v, ".")
	nonzero := func(p string) bool { return isNumeric(p) && p[0] != '0' }
	switch len(parts) {
	case 1:
		return nonzero(parts[0])
	case 2:
		return parts[0] == "0" && nonzero(parts[1])
	case 3:
		return parts[0] == "0" && parts[1] == "0" && (nonzero(parts[2]) || parts[2] == "0")
	}
	return false
}

// uniqueKey canonicalises a name for strong uniqueness: acronyms
// lowercased, [method]/[static] prefixes stripped (and R.R collapsed to R),
// so names a bindings generator would map to one identifier collide.
func uniqueKey(name string) string {
	k := strings.ToLower(name)
	for _, p := range []string{"[method]", "[static]"} {
		if rest, ok := strings.CutPrefix(k, p); ok {
			if r, m, _ := strings.Cut(rest, "."); r == m {
				return r
			}
			return rest
		}
	}
	return k
}

// nameSet detects names that are not strongly unique within a scope.
type nameSet map[string]string

func (ns nameSet) add(name, what string, off int) error {
	k := uniqueKey(name)
	if prev, dup := ns[k]; dup {
		if prev == name {
			return Invalid(ruleUnique, off, "duplicate %s name %q", what, name)
		}
		return Invalid(ruleUnique, off, "%s name %q conflicts with %q (names must differ in more than case or annotation)", what, name, prev)
	}
	ns[k] = name
	return nil
}

// checkExternName validates an import or export name with its attributes
// and adds it to the scope's set.
func checkExternName(set nameSet, what, name string, attrs ast.NameAttrs, off int) (externName, error) {
	n, msg := parseExternName(name)
	if strings.HasPrefix(n.annotation, "async") {
		return n, &binary.NotSupportedError{Feature: "async functions (" + what + " " + name + ")", Offset: off}
	}
	if msg != "" {
		rule := ruleExternName
		if n.iface && n.version == "" && strings.Contains(name, "@") {
			rule = ruleVersion
		}
		return n, Invalid(rule, off, "%s name %q: %s", what, name, msg)
	}
	if attrs.HasImplements {
		if n.iface || n.annotation != "" {
			return n, Invalid(ruleImplements, off, "%s name %q is not valid with `implements`: it must be a plain label", what, name)
		}
		if in, msg := parseExternName(attrs.Implements); msg != "" || !in.iface {
			if attrs.Implements == "" || msg != "" && !strings.Contains(attrs.Implements, ":") {
				return n, Invalid(ruleImplements, off, "%s %q: implements %q must be an interface name (like ns:pkg/iface)", what, name, attrs.Implements)
			}
			return n, Invalid(ruleImplements, off, "%s %q: implements %q is not a valid interface name: %s", what, name, attrs.Implements, msg)
		}
	}
	if attrs.VersionSuffix != "" {
		if !n.iface || !isCanonVersion(n.version) {
			return n, Invalid(ruleSuffix, off, "%s %q: a version suffix needs an interface name with a canonical version (like @0.2)", what, name)
		}
		if !isSemver(n.version + attrs.VersionSuffix) {
			return n, Invalid(ruleSuffix, off, "%s %q: version %s with suffix %q is not valid semver", what, name, n.version, attrs.VersionSuffix)
		}
	}
	if set != nil {
		if err := set.add(name, what, off); err != nil {
			return n, err
		}
	}
	return n, nil
}

// checkLabels validates the labels of a record, variant, enum, flags or
// function: kebab-case and strongly unique.
func checkLabels(what string, labels []string, off int) error {
	set := nameSet{}
	for _, l := range labels {
		if !isLabel(l) {
			return Invalid(ruleLabel, off, "%s label %q is not kebab-case", what, l)
		}
		if err := set.add(l, what, off); err != nil {
			return err
		}
	}
	return nil
}

// AnnotatedFunc checks the type a [constructor] or [method] name
// requires: a constructor returns own<R> (or result<own<R>, E>), a method
// takes self: borrow<R> first, R being the resource of that name.
func AnnotatedFunc(name string, ft *wit.Func, rn map[string]*wit.ResourceType, off int) error {
	n, _ := parseExternName(name)
	if n.annotation == "" || ft == nil {
		return nil
	}
	rt := rn[n.resource]
	if rt == nil {
		return Invalid(ruleAnnotation, off, "%q: %q is not a resource in this scope", name, n.resource)
	}
	switch n.annotation {
	case "constructor":
		res := ft.Result
		if r, ok := res.(*wit.Result); ok {
			res = r.OK
		}
		if own, ok := res.(*wit.Own); !ok || own.Resource != rt {
			return Invalid(ruleAnnotation, off, "%q must return own<%s> (or result<own<%s>, E>)", name, n.resource, n.resource)
		}
	case "method":
		if len(ft.Params) == 0 || ft.Params[0].Name != "self" {
			return Invalid(ruleAnnotation, off, "%q must take self: borrow<%s> as its first parameter", name, n.resource)
		}
		if b, ok := ft.Params[0].Type.(*wit.Borrow); !ok || b.Resource != rt {
			return Invalid(ruleAnnotation, off, "%q: parameter self must be borrow<%s>", name, n.resource)
		}
	}
	return nil
}
