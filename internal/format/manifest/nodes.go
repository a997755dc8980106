package manifest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
)

// This file holds the YAML-node plumbing shared by both roles: type names,
// YAML 1.2 core-schema scalar resolution, alias following and the decoder
// that collects errors and warnings with positions.

// Type names as Murmur reports them in "has invalid type (expected x, got y)".
const (
	kindNull     = "null"
	kindBool     = "boolean"
	kindNumber   = "number"
	kindString   = "string"
	kindSequence = "sequence"
	kindMapping  = "mapping"
	kindTagged   = "tagged"
)

// Limits that keep hostile input cheap: alias chains, nesting and the
// number of nodes a generic walk (secret scan, JSON conversion) visits.
const (
	maxAliasHops = 64
	maxDepth     = 128
	maxVisits    = 20000 // a real manifest has a few hundred nodes
)

var (
	coreInt   = regexp.MustCompile(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`)
	coreFloat = regexp.MustCompile(`^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

// deref follows aliases to the node they name.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasHops; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// kindOf classifies a node the way a YAML 1.2 core-schema loader would.
// yaml.v3's own resolver follows YAML 1.1 in places (1_000, 0b1), so plain
// scalars are resolved here instead.
func kindOf(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return kindNull
	}
	switch n.Kind {
	case yaml.MappingNode:
		return kindMapping
	case yaml.SequenceNode:
		return kindSequence
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return kindNull
		}
		return kindOf(n.Content[0])
	}
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.Tag {
		case "!!str", "!!binary", "!!timestamp":
			return kindString
		case "!!int", "!!float":
			return kindNumber
		case "!!bool":
			return kindBool
		case "!!null":
			return kindNull
		}
		return kindTagged
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return kindString
	}
	return plainKind(n.Value)
}

func plainKind(v string) string {
	switch v {
	case "", "~", "null", "Null", "NULL":
		return kindNull
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return kindBool
	}
	if coreInt.MatchString(v) || coreFloat.MatchString(v) {
		return kindNumber
	}
	return kindString
}

// isYAML11Bool reports the YAML 1.1 spellings some loaders (and yaml.v3's
// Unmarshal) turn into booleans; here they are strings, and saying so
// beats a bare type error.
func isYAML11Bool(v string) bool {
	switch strings.ToLower(v) {
	case "yes", "no", "on", "off", "y", "n":
		return true
	}
	return false
}

func pos(n *yaml.Node) (int, int) {
	if n == nil {
		return 0, 0
	}
	return n.Line, n.Column
}

// field is one key/value pair of a mapping.
type field struct {
	key  string
	k, v *yaml.Node
}

// obj is a mapping node with its pairs in source order.
type obj struct {
	node   *yaml.Node
	path   string
	fields []field
}

func (o *obj) get(key string) (field, bool) {
	if o == nil {
		return field{}, false
	}
	for _, f := range o.fields {
		if f.key == key {
			return f, true
		}
	}
	return field{}, false
}

// join builds a field path: join("capabilities", "shell") = "capabilities.shell".
func join(base, key string) string {
	if base == "" {
		return key
	}
	return base + "." + key
}

func index(base string, i int) string { return fmt.Sprintf("%s[%d]", base, i) }

// decoder collects every problem it finds instead of stopping at the first.
type decoder struct {
	file  string
	typeC diag.Code // code for type errors: E-MAN-002 (capsule) or E-MAN-003 (artifact)
	errs  []error
	warns []Warning
}

func (d *decoder) fail(code diag.Code, path string, n *yaml.Node, hint, format string, args ...any) {
	l, c := pos(n)
	d.errs = append(d.errs, diag.New(code, format, args...).WithHint(hint).At(At(d.file, path, l, c)))
}

func (d *decoder) warn(code, path string, n *yaml.Node, hint, format string, args ...any) {
	l, c := pos(n)
	d.warns = append(d.warns, Warning{Code: code, File: d.file, Path: path, Line: l, Column: c,
		Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// typeError reports a value of the wrong shape, with a hint tailored to the
// common mistakes (YAML 1.1 booleans, quoted numbers, unquoted versions).
func (d *decoder) typeError(path string, n *yaml.Node, expected string) {
	got := kindOf(n)
	hint := ""
	dn := deref(n)
	switch {
	case expected == "boolean" && got == kindString && dn != nil && isYAML11Bool(dn.Value):
		hint = fmt.Sprintf("YAML 1.2 booleans are only true and false; write %s: %s", lastKey(path), yaml11BoolMeaning(dn.Value))
	case expected == "boolean" && got == kindString:
		hint = "write true or false without quotes"
	case strings.Contains(expected, "integer") && got == kindString:
		hint = "write the number without quotes, e.g. " + lastKey(path) + ": 10"
	case strings.HasSuffix(expected, "string") && got == kindNumber:
		hint = fmt.Sprintf("quote the value, e.g. %s: \"%s\"", lastKey(path), dn.Value)
	case strings.HasSuffix(expected, "string") && got == kindBool:
		hint = fmt.Sprintf("quote the value, e.g. %s: \"%s\"", lastKey(path), dn.Value)
	case got == kindMapping && dn != nil && dn.Style&yaml.FlowStyle != 0 && strings.HasSuffix(expected, "string"):
		hint = "an unquoted '{' starts a YAML flow mapping; quote the value"
	case got == kindNull && strings.Contains(expected, "sequence"):
		hint = "write [] for an empty list, or remove the key"
	}
	d.fail(d.typeC, path, n, hint, "field '%s' has invalid type (expected %s, got %s)", path, expected, got)
}

func yaml11BoolMeaning(v string) string {
	switch strings.ToLower(v) {
	case "yes", "on", "y":
		return "true"
	}
	return "false"
}

func lastKey(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	return path
}

// object reads a mapping, reporting duplicate keys (E-MAN-002, as serde
// does) and unknown keys (a warning with a suggestion: Murmur ignores them,
// which turns a typo into a silently missing setting).
func (d *decoder) object(n *yaml.Node, path string, known []string) *obj {
	n = deref(n)
	o := &obj{node: n, path: path}
	if n == nil || n.Kind != yaml.MappingNode {
		return o
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		key := "<complex key>"
		if k != nil && k.Kind == yaml.ScalarNode {
			key = k.Value
			if kindOf(k) == kindNull && k.Style&yaml.TaggedStyle == 0 {
				key = "null"
			}
		}
		p := join(path, key)
		if seen[key] {
			d.fail(CodeSyntax, p, k, "remove one of the two entries",
				"YAML syntax error: duplicate key '%s' in mapping", key)
			continue
		}
		seen[key] = true
		o.fields = append(o.fields, field{key: key, k: k, v: v})
		if known != nil && !contains(known, key) {
			hint := ""
			if s := suggest(key, known); s != "" {
				hint = fmt.Sprintf("did you mean '%s'?", s)
			}
			where := "at the top level"
			if path != "" {
				where = "in '" + path + "'"
			}
			d.warn(WarnUnknownKey, p, k, hint, "unknown key '%s' %s is ignored", key, where)
		}
	}
	return o
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isAbsent: absent, ~, null and an empty value all mean "not set" for
// optional keys.
func isAbsent(n *yaml.Node) bool {
	return kindOf(n) == kindNull
}

// isEmptyPlain is the empty value (`key:` with nothing after it), which
// serde treats as an empty list for plain list fields while `~`/`null` is a
// type error there.
func isEmptyPlain(n *yaml.Node) bool {
	n = deref(n)
	return n != nil && n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0
}

// optMap returns the mapping under f, nil when absent/null; a non-mapping is
// a type error.
func (d *decoder) optMap(f field, ok bool, path string, known []string) *obj {
	if !ok || isAbsent(f.v) {
		return nil
	}
	if kindOf(f.v) != kindMapping {
		d.typeError(path, f.v, "a mapping")
		return nil
	}
	return d.object(f.v, path, known)
}

// looseString reads a capsule string field: any untagged scalar keeps its
// source text (1.0 stays "1.0"), as the typed Rust decoder does; null means
// absent.
func (d *decoder) looseString(f field, ok bool, path string) (string, bool) {
	if !ok || isAbsent(f.v) {
		return "", false
	}
	n := deref(f.v)
	if n == nil || n.Kind != yaml.ScalarNode || kindOf(n) == kindTagged {
		d.typeError(path, f.v, "a string")
		return "", false
	}
	return n.Value, true
}

// optBool reads an optional boolean: only true/false spellings.
func (d *decoder) optBool(f field, ok bool, path string) (*bool, bool) {
	if !ok || isAbsent(f.v) {
		return nil, true
	}
	return d.boolValue(f, path)
}

// plainBool reads a bool with a serde default: absent is the default, but
// an empty or null value is a type error.
func (d *decoder) plainBool(f field, ok bool, path string) bool {
	if !ok {
		return false
	}
	b, good := d.boolValue(f, path)
	return good && *b
}

func (d *decoder) boolValue(f field, path string) (*bool, bool) {
	if kindOf(f.v) != kindBool {
		d.typeError(path, f.v, "boolean")
		return nil, false
	}
	v := strings.ToLower(deref(f.v).Value) == "true"
	return &v, true
}

// optUint reads an optional unsigned integer of the given bit size.
func (d *decoder) optUint(f field, ok bool, path string, bits int) (*uint64, bool) {
	if !ok || isAbsent(f.v) {
		return nil, true
	}
	n := deref(f.v)
	expected := fmt.Sprintf("an unsigned %d-bit integer", bits)
	if kindOf(n) != kindNumber || !coreInt.MatchString(strings.TrimPrefix(n.Value, "+")) {
		d.typeError(path, f.v, expected)
		return nil, false
	}
	v, err := parseUint(n.Value, bits)
	if err != "" {
		d.fail(d.typeC, path, f.v, fmt.Sprintf("use a whole number between 0 and %d", uint64(1<<bits-1)),
			"field '%s' has invalid value %s (expected %s: %s)", path, n.Value, expected, err)
		return nil, false
	}
	return &v, true
}

func parseUint(s string, bits int) (uint64, string) {
	if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	if strings.HasPrefix(s, "-") {
		if strings.Trim(s[1:], "0") == "" && coreInt.MatchString(s) {
			return 0, ""
		}
		return 0, "negative"
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		s, base = s[2:], 16
	case strings.HasPrefix(s, "0o"):
		s, base = s[2:], 8
	}
	if strings.ContainsAny(s, ".eEn") && base == 10 {
		return 0, "not an integer"
	}
	v, err := strconv.ParseUint(s, base, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, "too large"
		}
		return 0, "not an integer"
	}
	return v, ""
}

// optFloat reads a float; ints are accepted as floats.
func (d *decoder) optFloat(f field, ok bool, path string) (*float64, bool) {
	if !ok || isAbsent(f.v) {
		return nil, true
	}
	n := deref(f.v)
	if kindOf(n) != kindNumber {
		d.typeError(path, f.v, "a number")
		return nil, false
	}
	var v float64
	switch strings.TrimLeft(n.Value, "+-") {
	case ".inf", ".Inf", ".INF":
		v = math.Inf(1)
		if strings.HasPrefix(n.Value, "-") {
			v = math.Inf(-1)
		}
	case ".nan", ".NaN", ".NAN":
		v = math.NaN()
	default:
		if u, err := parseUint(n.Value, 64); err == "" {
			v = float64(u)
		} else {
			p, perr := strconv.ParseFloat(n.Value, 64)
			if perr != nil && !strings.Contains(perr.Error(), "range") {
				d.typeError(path, f.v, "a number")
				return nil, false
			}
			v = p
		}
	}
	return &v, true
}

// stringList reads a list of strings. plain lists (serde `Vec` with a
// default) take absent/empty as [] and reject null; optional ones take null
// as absent. Items keep their source text like looseString.
func (d *decoder) stringList(f field, ok bool, path string, plain bool) ([]string, []*yaml.Node, bool) {
	if !ok {
		return nil, nil, true
	}
	if isEmptyPlain(f.v) {
		return []string{}, nil, true
	}
	if isAbsent(f.v) {
		if plain {
			d.typeError(path, f.v, "a sequence of strings")
			return nil, nil, false
		}
		return nil, nil, true
	}
	n := deref(f.v)
	if n.Kind != yaml.SequenceNode {
		d.typeError(path, f.v, "a sequence of strings")
		return nil, nil, false
	}
	out := make([]string, 0, len(n.Content))
	nodes := make([]*yaml.Node, 0, len(n.Content))
	good := true
	for i, it := range n.Content {
		item := deref(it)
		if item == nil || item.Kind != yaml.ScalarNode || kindOf(item) == kindNull || kindOf(item) == kindTagged {
			d.typeError(index(path, i), it, "a string")
			good = false
			continue
		}
		out = append(out, item.Value)
		nodes = append(nodes, it)
	}
	return out, nodes, good
}

// seq returns the items of a plain list field (absent/empty ⇒ none,
// null ⇒ type error).
func (d *decoder) seq(f field, ok bool, path, expected string) ([]*yaml.Node, bool) {
	if !ok || isEmptyPlain(f.v) {
		return nil, true
	}
	n := deref(f.v)
	if n == nil || n.Kind != yaml.SequenceNode {
		d.typeError(path, f.v, expected)
		return nil, false
	}
	return n.Content, true
}
