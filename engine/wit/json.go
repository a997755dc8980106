package wit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSON mapping of values (what `mur wasm call` reads and prints):
//
//	bool                 true / false
//	integers             numbers, range-checked; written without fraction or
//	                     exponent; u64/s64 are exact over the full range
//	f32, f64             numbers; NaN and ±infinity as "NaN", "Infinity",
//	                     "-Infinity"
//	char                 a string of exactly one code point
//	string               string
//	list<T>, list<u8>    array (list<u8> too: an array of numbers)
//	list<T, N>           array of exactly N elements
//	map<K, V>            array of [key, value] arrays, in order; keys may
//	                     repeat (the component model allows it)
//	tuple                array with one element per type
//	record               object keyed by field name; on input unknown fields
//	                     are errors and option fields may be omitted (none)
//	variant              {"<case>": payload}, payload null for cases without one
//	enum                 "<case>"
//	option<T>            null for none, else the value
//	option<option<T>>    null for none, else {"some": value}: an option whose
//	                     payload is itself an option wraps some in an object,
//	                     so none and some(none) stay distinct
//	result<T, E>         {"ok": value} or {"err": value}, null for a side
//	                     without a type
//	flags                array of the names of the set flags
//	own, borrow          not representable: an error
//
// Errors name the offending value with a JSON path such as $.input.data;
// function arguments are named by parameter name.

// ToJSON encodes v, a value of type t in the Go representation documented
// in this package, as compact JSON. A nil t (a function without a result)
// encodes as null.
func ToJSON(t Type, v any) ([]byte, error) {
	var e encoder
	if err := e.value(nil, t, v); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// FromJSON decodes one JSON value as a value of type t.
func FromJSON(t Type, data []byte) (any, error) {
	d := newDecoder(data)
	tok, err := d.token(nil)
	if err != nil {
		return nil, err
	}
	v, err := d.value(nil, t, tok)
	if err != nil {
		return nil, err
	}
	return v, d.end()
}

// ArgsFromJSON decodes the arguments of a function with the given
// parameters: a JSON array with one element per parameter, or an object
// keyed by parameter name (where parameters of option type may be omitted).
func ArgsFromJSON(params []Param, data []byte) ([]any, error) {
	d := newDecoder(data)
	tok, err := d.token(nil)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(params))
	types := make([]Type, len(params))
	for i, p := range params {
		names[i], types[i] = p.Name, p.Type
	}
	var args []any
	switch tok {
	case json.Delim('['):
		args = make([]any, 0, len(params))
		for d.dec.More() {
			if len(args) == len(params) {
				return nil, fmt.Errorf("$: want %s, got more", countArgs(names))
			}
			p := &path{name: params[len(args)].Name}
			if tok, err = d.token(p); err != nil {
				return nil, err
			}
			v, err := d.value(p, params[len(args)].Type, tok)
			if err != nil {
				return nil, err
			}
			args = append(args, v)
		}
		if len(args) < len(params) {
			return nil, fmt.Errorf("$: want %s, got %d", countArgs(names), len(args))
		}
		if _, err := d.token(nil); err != nil { // ']'
			return nil, err
		}
	case json.Delim('{'):
		if args, err = d.fields(nil, names, types, "the function", "parameter"); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("$: want an array of arguments or an object keyed by parameter name, got %s", tokenKind(tok))
	}
	return args, d.end()
}

// countArgs says how many arguments the named parameters take.
func countArgs(names []string) string {
	switch len(names) {
	case 0:
		return "no arguments"
	case 1:
		return "1 argument (" + names[0] + ")"
	}
	return fmt.Sprintf("%d arguments (%s)", len(names), strings.Join(names, ", "))
}

// path locates a value inside a JSON document for error messages; it is
// only turned into a string when an error is reported.
type path struct {
	up    *path
	name  string // field, case or parameter name; "" for an index
	index int
}

func (p *path) field(name string) *path { return &path{up: p, name: name} }
func (p *path) elem(i int) *path        { return &path{up: p, index: i} }

func (p *path) String() string {
	switch {
	case p == nil:
		return "$"
	case p.name == "":
		return p.up.String() + "[" + strconv.Itoa(p.index) + "]"
	}
	return p.up.String() + "." + p.name
}

func errorf(p *path, format string, args ...any) error {
	return fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...))
}

const errResource = "resources cannot be passed as JSON"

// describe names t for error messages.
func describe(t Type) string {
	if n := NameOf(t); n != "" {
		return t.Kind().String() + " " + n
	}
	return TypeString(t)
}

type encoder struct{ buf []byte }

func (e *encoder) value(p *path, t Type, v any) error {
	switch t := t.(type) {
	case nil:
		if v != nil {
			return errorf(p, "want no value, got %T", v)
		}
		e.buf = append(e.buf, "null"...)
	case Prim:
		return e.prim(p, t, v)
	case *List:
		if b, ok := v.([]byte); ok && t.Elem == U8 {
			e.buf = append(e.buf, '[')
			for i, x := range b {
				if i > 0 {
					e.buf = append(e.buf, ',')
				}
				e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
			}
			e.buf = append(e.buf, ']')
			return nil
		}
		items, ok := v.([]any)
		if !ok {
			return wantGo(p, t, v)
		}
		return e.array(p, items, func(int) Type { return t.Elem })
	case *FixedList:
		items, ok := v.([]any)
		if !ok || len(items) != int(t.Len) {
			return wantGo(p, t, v)
		}
		return e.array(p, items, func(int) Type { return t.Elem })
	case *Map:
		entries, ok := v.([]MapEntry)
		if !ok {
			return wantGo(p, t, v)
		}
		return e.entries(p, t, entries)
	case *Tuple:
		items, ok := v.([]any)
		if !ok || len(items) != len(t.Types) {
			return wantGo(p, t, v)
		}
		return e.array(p, items, func(i int) Type { return t.Types[i] })
	case *Record:
		items, ok := v.([]any)
		if !ok || len(items) != len(t.Fields) {
			return wantGo(p, t, v)
		}
		e.buf = append(e.buf, '{')
		for i, f := range t.Fields {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = appendString(e.buf, f.Name)
			e.buf = append(e.buf, ':')
			if err := e.value(p.field(f.Name), f.Type, items[i]); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
	case *Variant:
		vv, ok := v.(VariantValue)
		if !ok || int(vv.Case) >= len(t.Cases) {
			return wantGo(p, t, v)
		}
		c := t.Cases[vv.Case]
		return e.single(p, c.Name, c.Type, vv.Value)
	case *Enum:
		i, ok := v.(uint32)
		if !ok || int(i) >= len(t.Cases) {
			return wantGo(p, t, v)
		}
		e.buf = appendString(e.buf, t.Cases[i])
	case *Option:
		o, ok := v.(OptionValue)
		switch {
		case !ok:
			return wantGo(p, t, v)
		case !o.Some:
			e.buf = append(e.buf, "null"...)
		case t.Elem.Kind() == KindOption:
			return e.single(p, "some", t.Elem, o.Value)
		default:
			return e.value(p, t.Elem, o.Value)
		}
	case *Result:
		r, ok := v.(ResultValue)
		switch {
		case !ok:
			return wantGo(p, t, v)
		case r.Err:
			return e.single(p, "err", t.Err, r.Value)
		default:
			return e.single(p, "ok", t.OK, r.Value)
		}
	case *Flags:
		bits, ok := v.(uint64)
		if !ok || (len(t.Names) < 64 && bits>>len(t.Names) != 0) {
			return wantGo(p, t, v)
		}
		e.buf = append(e.buf, '[')
		first := true
		for i, name := range t.Names {
			if bits&(1<<i) == 0 {
				continue
			}
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			e.buf = appendString(e.buf, name)
		}
		e.buf = append(e.buf, ']')
	case *Own, *Borrow:
		return errorf(p, errResource)
	default:
		return errorf(p, "unsupported type %s", t.Kind())
	}
	return nil
}

func (e *encoder) array(p *path, items []any, elem func(int) Type) error {
	e.buf = append(e.buf, '[')
	for i, x := range items {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(p.elem(i), elem(i), x); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

// entries writes a map as an array of [key, value] arrays.
func (e *encoder) entries(p *path, t *Map, entries []MapEntry) error {
	e.buf = append(e.buf, '[')
	for i, x := range entries {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		ep := p.elem(i)
		e.buf = append(e.buf, '[')
		if err := e.value(ep.elem(0), t.Key, x.Key); err != nil {
			return err
		}
		e.buf = append(e.buf, ',')
		if err := e.value(ep.elem(1), t.Value, x.Value); err != nil {
			return err
		}
		e.buf = append(e.buf, ']')
	}
	e.buf = append(e.buf, ']')
	return nil
}

// single writes the one-key object {"key": v}.
func (e *encoder) single(p *path, key string, t Type, v any) error {
	e.buf = append(e.buf, '{')
	e.buf = appendString(e.buf, key)
	e.buf = append(e.buf, ':')
	if err := e.value(p.field(key), t, v); err != nil {
		return err
	}
	e.buf = append(e.buf, '}')
	return nil
}

func (e *encoder) prim(p *path, t Prim, v any) error {
	ok := true
	switch t {
	case Bool:
		var b bool
		if b, ok = v.(bool); ok {
			e.buf = strconv.AppendBool(e.buf, b)
		}
	case S8, S16, S32, S64:
		var n int64
		switch x := v.(type) {
		case int8:
			n, ok = int64(x), t == S8
		case int16:
			n, ok = int64(x), t == S16
		case int32:
			n, ok = int64(x), t == S32
		case int64:
			n, ok = x, t == S64
		default:
			ok = false
		}
		if ok {
			e.buf = strconv.AppendInt(e.buf, n, 10)
		}
	case U8, U16, U32, U64:
		var n uint64
		switch x := v.(type) {
		case uint8:
			n, ok = uint64(x), t == U8
		case uint16:
			n, ok = uint64(x), t == U16
		case uint32:
			n, ok = uint64(x), t == U32
		case uint64:
			n, ok = x, t == U64
		default:
			ok = false
		}
		if ok {
			e.buf = strconv.AppendUint(e.buf, n, 10)
		}
	case F32:
		var f float32
		if f, ok = v.(float32); ok {
			e.buf = appendFloat(e.buf, float64(f), 32)
		}
	case F64:
		var f float64
		if f, ok = v.(float64); ok {
			e.buf = appendFloat(e.buf, f, 64)
		}
	case Char:
		var r rune
		if r, ok = v.(rune); ok {
			if !utf8.ValidRune(r) {
				return errorf(p, "char U+%04X is not a Unicode scalar value", r)
			}
			e.buf = appendString(e.buf, string(r))
		}
	case String:
		var s string
		if s, ok = v.(string); ok {
			if !utf8.ValidString(s) {
				return errorf(p, "string is not valid UTF-8")
			}
			e.buf = appendString(e.buf, s)
		}
	default:
		return errorf(p, "unsupported type %s", t.Kind())
	}
	if !ok {
		return wantGo(p, t, v)
	}
	return nil
}

// wantGo reports a Go value that does not represent a value of t.
func wantGo(p *path, t Type, v any) error {
	return errorf(p, "%T is not a valid value of %s", v, describe(t))
}

// appendFloat writes f as a JSON number, or as one of the strings "NaN",
// "Infinity", "-Infinity", which JSON numbers cannot express.
func appendFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	return strconv.AppendFloat(b, f, format, -1, bits)
}

// appendString writes s, valid UTF-8, as a JSON string. Unlike
// encoding/json it leaves <, > and & alone: the output is for terminals
// and programs, not for embedding in HTML.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// decoder walks the JSON tokens guided by the expected type, so it never
// nests deeper than the type does and stops at the first mismatch.
type decoder struct {
	dec *json.Decoder
}

func newDecoder(data []byte) *decoder {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return &decoder{dec}
}

// token reads the next token; p locates it for syntax errors.
func (d *decoder) token(p *path) (json.Token, error) {
	tok, err := d.dec.Token()
	switch {
	case err == io.EOF:
		return nil, errorf(p, "invalid JSON: unexpected end of input")
	case err != nil:
		return nil, errorf(p, "invalid JSON: %v", err)
	}
	return tok, nil
}

// end checks that nothing but white space follows the value.
func (d *decoder) end() error {
	if _, err := d.dec.Token(); err != io.EOF {
		return errors.New("invalid JSON: unexpected data after the value")
	}
	return nil
}

// value decodes a value of type t whose first token, tok, is already read.
func (d *decoder) value(p *path, t Type, tok json.Token) (any, error) {
	switch t := t.(type) {
	case nil:
		if tok != nil {
			return nil, want(p, "null", tok)
		}
		return nil, nil
	case Prim:
		return d.prim(p, t, tok)
	case *List:
		if tok != json.Delim('[') {
			return nil, want(p, "array for "+describe(t), tok)
		}
		if t.Elem == U8 {
			b := []byte{}
			err := d.elems(p, func(p *path, tok json.Token) error {
				v, err := d.prim(p, U8, tok)
				if err == nil {
					b = append(b, v.(uint8))
				}
				return err
			})
			return b, err
		}
		items := []any{}
		err := d.elems(p, func(p *path, tok json.Token) error {
			v, err := d.value(p, t.Elem, tok)
			items = append(items, v)
			return err
		})
		return items, err
	case *FixedList:
		return d.tuple(p, int(t.Len), func(int) Type { return t.Elem }, describe(t), tok)
	case *Map:
		if tok != json.Delim('[') {
			return nil, want(p, "array for "+describe(t), tok)
		}
		pair := func(i int) Type { return [...]Type{t.Key, t.Value}[i] }
		entries := []MapEntry{}
		err := d.elems(p, func(p *path, tok json.Token) error {
			kv, err := d.tuple(p, 2, pair, "a [key, value] pair of "+describe(t), tok)
			if err == nil {
				entries = append(entries, MapEntry{Key: kv[0], Value: kv[1]})
			}
			return err
		})
		return entries, err
	case *Tuple:
		return d.tuple(p, len(t.Types), func(i int) Type { return t.Types[i] }, describe(t), tok)
	case *Record:
		if tok != json.Delim('{') {
			return nil, want(p, "object for "+describe(t), tok)
		}
		names := make([]string, len(t.Fields))
		types := make([]Type, len(t.Fields))
		for i, f := range t.Fields {
			names[i], types[i] = f.Name, f.Type
		}
		return d.fields(p, names, types, describe(t), "field")
	case *Variant:
		var v VariantValue
		err := d.single(p, tok, describe(t), func(p *path, key string, tok json.Token) error {
			for i, c := range t.Cases {
				if c.Name == key {
					payload, err := d.value(p, c.Type, tok)
					v = VariantValue{Case: uint32(i), Value: payload}
					return err
				}
			}
			return errorf(p.up, "unknown case %q; %s has cases %s", key, describe(t), caseList(t))
		})
		return v, err
	case *Enum:
		s, ok := tok.(string)
		if !ok {
			return nil, want(p, "string for "+describe(t), tok)
		}
		for i, c := range t.Cases {
			if c == s {
				return uint32(i), nil
			}
		}
		return nil, errorf(p, "unknown case %q; %s has cases %s", s, describe(t), strings.Join(t.Cases, ", "))
	case *Option:
		switch {
		case tok == nil:
			return None(), nil
		case t.Elem.Kind() == KindOption:
			var v any
			err := d.single(p, tok, `{"some": value} for `+describe(t), func(p *path, key string, tok json.Token) error {
				if key != "some" {
					return errorf(p.up, `want the key "some", got %q`, key)
				}
				var err error
				v, err = d.value(p, t.Elem, tok)
				return err
			})
			return Some(v), err
		}
		v, err := d.value(p, t.Elem, tok)
		return Some(v), err
	case *Result:
		var r ResultValue
		err := d.single(p, tok, describe(t), func(p *path, key string, tok json.Token) error {
			switch key {
			case "ok":
				v, err := d.value(p, t.OK, tok)
				r = Ok(v)
				return err
			case "err":
				v, err := d.value(p, t.Err, tok)
				r = Err(v)
				return err
			}
			return errorf(p.up, `want the key "ok" or "err", got %q`, key)
		})
		return r, err
	case *Flags:
		if tok != json.Delim('[') {
			return nil, want(p, "array of flag names for "+describe(t), tok)
		}
		var bits uint64
		err := d.elems(p, func(p *path, tok json.Token) error {
			s, ok := tok.(string)
			if !ok {
				return want(p, "flag name", tok)
			}
			for i, name := range t.Names {
				if name == s {
					bits |= 1 << i
					return nil
				}
			}
			return errorf(p, "unknown flag %q; %s has flags %s", s, describe(t), strings.Join(t.Names, ", "))
		})
		return bits, err
	case *Own, *Borrow:
		return nil, errorf(p, errResource)
	}
	return nil, errorf(p, "unsupported type %s", t.Kind())
}

// elems calls fn for each element of the array whose '[' was just read,
// then consumes the ']'.
func (d *decoder) elems(p *path, fn func(p *path, tok json.Token) error) error {
	for i := 0; d.dec.More(); i++ {
		ep := p.elem(i)
		tok, err := d.token(ep)
		if err != nil {
			return err
		}
		if err := fn(ep, tok); err != nil {
			return err
		}
	}
	_, err := d.token(p)
	return err
}

// members calls fn for each member of the object whose '{' was just read,
// rejecting duplicate keys, then consumes the '}'.
func (d *decoder) members(p *path, fn func(p *path, key string, tok json.Token) error) error {
	seen := map[string]bool{}
	for d.dec.More() {
		k, err := d.token(p)
		if err != nil {
			return err
		}
		key := k.(string) // the decoder only yields strings in key position
		if seen[key] {
			return errorf(p, "duplicate key %q", key)
		}
		seen[key] = true
		fp := p.field(key)
		tok, err := d.token(fp)
		if err != nil {
			return err
		}
		if err := fn(fp, key, tok); err != nil {
			return err
		}
	}
	_, err := d.token(p)
	return err
}

// single decodes a one-key object (variant, result, nested option).
func (d *decoder) single(p *path, tok json.Token, what string, fn func(p *path, key string, tok json.Token) error) error {
	if tok != json.Delim('{') {
		return want(p, "object with one key for "+what, tok)
	}
	n := 0
	err := d.members(p, func(fp *path, key string, tok json.Token) error {
		if n++; n > 1 {
			return errorf(p, "want exactly one key for %s, got a second: %q", what, key)
		}
		return fn(fp, key, tok)
	})
	if err == nil && n == 0 {
		err = errorf(p, "want exactly one key for %s, got an empty object", what)
	}
	return err
}

// fields decodes the object whose '{' was just read as named values (of
// what, called nouns): unknown names are errors, missing ones too unless
// of option type.
func (d *decoder) fields(p *path, names []string, types []Type, what, noun string) ([]any, error) {
	vals := make([]any, len(names))
	set := make([]bool, len(names))
	err := d.members(p, func(fp *path, key string, tok json.Token) error {
		for i, name := range names {
			if name == key {
				v, err := d.value(fp, types[i], tok)
				vals[i], set[i] = v, true
				return err
			}
		}
		if len(names) == 0 {
			return errorf(p, "unknown %s %q; %s has no %ss", noun, key, what, noun)
		}
		return errorf(p, "unknown %s %q; %s has %ss %s", noun, key, what, noun, strings.Join(names, ", "))
	})
	if err != nil {
		return nil, err
	}
	var missing []string
	for i, name := range names {
		switch {
		case set[i]:
		case types[i] != nil && types[i].Kind() == KindOption:
			vals[i] = None()
		default:
			missing = append(missing, strconv.Quote(name))
		}
	}
	switch {
	case len(missing) == 1:
		return nil, errorf(p, "missing %s %s of %s", noun, missing[0], what)
	case len(missing) > 1:
		return nil, errorf(p, "missing %ss %s of %s", noun, strings.Join(missing, ", "), what)
	}
	return vals, nil
}

func caseList(t *Variant) string {
	names := make([]string, len(t.Cases))
	for i, c := range t.Cases {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func (d *decoder) prim(p *path, t Prim, tok json.Token) (any, error) {
	switch t {
	case Bool:
		if b, ok := tok.(bool); ok {
			return b, nil
		}
	case S8, S16, S32, S64, U8, U16, U32, U64:
		if n, ok := tok.(json.Number); ok {
			return integer(p, t, string(n))
		}
	case F32, F64:
		return float(p, t, tok)
	case Char:
		if s, ok := tok.(string); ok {
			r, size := utf8.DecodeRuneInString(s)
			if size == 0 || size != len(s) {
				return nil, errorf(p, "want a single character, got %q", s)
			}
			return r, nil
		}
	case String:
		if s, ok := tok.(string); ok {
			return s, nil
		}
	default:
		return nil, errorf(p, "unsupported type %s", t.Kind())
	}
	return nil, want(p, t.Kind().String(), tok)
}

// integer parses a JSON number as an integer of type t, exactly.
func integer(p *path, t Prim, s string) (any, error) {
	if strings.ContainsAny(s, ".eE") {
		return nil, errorf(p, "want %s, got %s (integers take no fraction or exponent)", t.Kind(), s)
	}
	bits, signed := intBits(t)
	if signed {
		n, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
			return nil, errorf(p, "%s is out of range for %s (%d to %d)", s, t.Kind(), lo, hi)
		}
		switch t {
		case S8:
			return int8(n), nil
		case S16:
			return int16(n), nil
		case S32:
			return int32(n), nil
		}
		return n, nil
	}
	if strings.Trim(s, "-0") == "" {
		s = "0" // "-0" is zero, not a negative number
	}
	n, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		return nil, errorf(p, "%s is out of range for %s (0 to %d)", s, t.Kind(), uint64(1)<<bits-1)
	}
	switch t {
	case U8:
		return uint8(n), nil
	case U16:
		return uint16(n), nil
	case U32:
		return uint32(n), nil
	}
	return n, nil
}

// intBits returns the width of integer type t and whether it is signed.
func intBits(t Prim) (bits int, signed bool) {
	switch t {
	case S8, U8:
		bits = 8
	case S16, U16:
		bits = 16
	case S32, U32:
		bits = 32
	default:
		bits = 64
	}
	return bits, t == S8 || t == S16 || t == S32 || t == S64
}

// float parses a JSON number, or "NaN", "Infinity" or "-Infinity", as a
// float of type t.
func float(p *path, t Prim, tok json.Token) (any, error) {
	bits := 64
	if t == F32 {
		bits = 32
	}
	var f float64
	switch x := tok.(type) {
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(x), bits); err != nil {
			return nil, errorf(p, "%s is out of range for %s", x, t.Kind())
		}
	case string:
		switch x {
		case "NaN":
			f = math.NaN()
		case "Infinity":
			f = math.Inf(1)
		case "-Infinity":
			f = math.Inf(-1)
		default:
			return nil, errorf(p, `want %s (a number, "NaN", "Infinity" or "-Infinity"), got string %q`, t.Kind(), x)
		}
	default:
		return nil, want(p, t.Kind().String(), tok)
	}
	if t == F32 {
		return float32(f), nil
	}
	return f, nil
}

// want reports a JSON value of the wrong kind.
func want(p *path, what string, tok json.Token) error {
	return errorf(p, "want %s, got %s", what, tokenKind(tok))
}

func tokenKind(tok json.Token) string {
	switch tok := tok.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case json.Delim:
		if tok == '[' {
			return "array"
		}
		return "object"
	}
	return fmt.Sprintf("%T", tok)
}

// tuple decodes an array of exactly n elements, element i of type
// elem(i), whose first token, tok, is already read.
func (d *decoder) tuple(p *path, n int, elem func(int) Type, what string, tok json.Token) ([]any, error) {
	if tok != json.Delim('[') {
		return nil, want(p, "array for "+what, tok)
	}
	items := []any{}
	err := d.elems(p, func(p *path, tok json.Token) error {
		if len(items) == n {
			return errorf(p.up, "want %d elements for %s, got more", n, what)
		}
		v, err := d.value(p, elem(len(items)), tok)
		items = append(items, v)
		return err
	})
	if err == nil && len(items) < n {
		err = errorf(p, "want %d elements for %s, got %d", n, what, len(items))
	}
	return items, err
}
