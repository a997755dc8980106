package component_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/component/internal/binary"
	"github.com/mur-go/mur/engine/wit"
)

// The component model's reference tests (WebAssembly/component-model,
// test/), copied as .wast at the commit named in SOURCE and encoded by
// guests/build-reference.sh into one JSON file each. Every command runs;
// the ones this engine does not pass are listed, each with its reason, in
// known-failures.txt, and the test fails both on a failure not listed and
// on a listed command that passes, so the list stays exact.
const referenceDir = "testdata/reference"

type refCommand struct {
	Line       int               `json:"line"`
	Type       string            `json:"type"`
	ID         string            `json:"id"`
	Of         string            `json:"of"`
	Wasm       string            `json:"wasm"`
	Quote      bool              `json:"quote"`
	TextError  string            `json:"textError"`
	Message    string            `json:"message"`
	Instance   string            `json:"instance"`
	Invoke     string            `json:"invoke"`
	Args       []json.RawMessage `json:"args"`
	Expected   []json.RawMessage `json:"expected"`
	Instantiat bool              `json:"instantiate"`
}

type refFile struct {
	Wast       string       `json:"wast"`
	WastSha256 string       `json:"wastSha256"`
	Commands   []refCommand `json:"commands"`
}

func TestReferenceTests(t *testing.T) {
	sums := readReferenceSums(t)
	known := readKnownFailures(t)
	e := newEngine(t)
	var files []string
	for f := range sums {
		files = append(files, f)
	}
	sort.Strings(files)
	total, failed, compiledOnly := 0, 0, 0
	seen := map[string]bool{}
	var report []string
	for _, f := range files {
		var rf refFile
		b, err := os.ReadFile(filepath.Join(referenceDir, "wast", strings.TrimSuffix(f, ".wast")+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r := &refRunner{t: t, e: e, defs: map[string]*component.Component{}, insts: map[string]*component.Instance{}}
		pass, fail := 0, 0
		for _, c := range rf.Commands {
			key := fmt.Sprintf("%s:%d", f, c.Line)
			err := r.run(c)
			total++
			if err != nil {
				fail++
				failed++
			} else {
				pass++
			}
			reason, listed := known[key]
			seen[key] = true
			switch {
			case err != nil && !listed:
				t.Errorf("%s %s: %v", key, c.Type, err)
			case err == nil && listed:
				t.Errorf("%s %s passes; remove it from known-failures.txt (%s)", key, c.Type, reason)
			}
		}
		r.close()
		compiledOnly += r.compiledOnly
		report = append(report, fmt.Sprintf("%-60s %4d pass %4d fail", f, pass, fail))
	}
	for key := range known {
		if !seen[key] {
			t.Errorf("known-failures.txt lists %s, which is no command", key)
		}
	}
	t.Logf("reference tests: %d of %d commands pass (%d components only compiled: they import what the runner does not define)\n%s",
		total-failed, total, compiledOnly, strings.Join(report, "\n"))
}

type refRunner struct {
	t     *testing.T
	e     *component.Engine
	defs  map[string]*component.Component
	insts map[string]*component.Instance
	last  *component.Instance
	open  []*component.Instance
	// compiledOnly counts components that import more than functions
	// (resources, modules, components), which the runner only compiles.
	compiledOnly int
}

func (r *refRunner) close() {
	for _, i := range r.open {
		i.Close(context.Background())
	}
}

func (r *refRunner) compile(c refCommand) (*component.Component, error) {
	if c.TextError != "" {
		return nil, fmt.Errorf("text does not encode: %s", c.TextError)
	}
	wasm, err := base64.StdEncoding.DecodeString(c.Wasm)
	if err != nil {
		return nil, err
	}
	return r.e.Compile(context.Background(), wasm)
}

// instantiate runs comp with every imported function defined as a trap, as
// the reference runner does; a component importing anything else is only
// compiled.
func (r *refRunner) instantiate(comp *component.Component) (*component.Instance, error) {
	l := component.NewLinker()
	trap := func(context.Context, *component.Store, []any) (any, error) {
		return nil, errors.New("unknown import called")
	}
	for _, im := range comp.World().Imports {
		switch im.Kind {
		case wit.ExternFunc:
			if err := l.DefineFunc("", im.Name, im.Func, trap); err != nil {
				return nil, err
			}
		case wit.ExternInstance:
			for _, ex := range im.Exports {
				if ex.Kind != wit.ExternFunc {
					r.compiledOnly++
					return nil, nil
				}
				if err := l.DefineFunc(im.Name, ex.Name, ex.Func, trap); err != nil {
					return nil, err
				}
			}
		case wit.ExternType:
		default:
			r.compiledOnly++
			return nil, nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	inst, err := l.Instantiate(ctx, comp, &component.Store{})
	if inst != nil {
		r.open = append(r.open, inst)
	}
	return inst, err
}

func (r *refRunner) run(c refCommand) error {
	switch c.Type {
	case "component", "definition":
		if c.Type == "component" {
			r.last = nil // invokes after a failed component must not reach an older one
		}
		comp, err := r.compile(c)
		if err != nil {
			return fmt.Errorf("valid component refused: %w", err)
		}
		if c.ID != "" {
			r.defs[c.ID] = comp
		}
		if c.Type == "definition" {
			return nil
		}
		inst, err := r.instantiate(comp)
		if err != nil {
			return fmt.Errorf("instantiation failed: %w", err)
		}
		r.last = inst
		if c.ID != "" {
			r.insts[c.ID] = inst
		}
		return nil
	case "instance":
		r.last = nil
		comp := r.defs[c.Of]
		if comp == nil {
			return fmt.Errorf("no definition %s", c.Of)
		}
		inst, err := r.instantiate(comp)
		if err != nil {
			return fmt.Errorf("instantiation failed: %w", err)
		}
		r.last, r.insts[c.ID] = inst, inst
		return nil
	case "assert_invalid":
		_, err := r.compile(c)
		if err == nil {
			return fmt.Errorf("invalid component accepted (want %q)", c.Message)
		}
		return notSupported(err, c.Message)
	case "assert_malformed":
		if c.Quote {
			if c.TextError == "" {
				return fmt.Errorf("malformed text encoded (want %q)", c.Message)
			}
			return nil
		}
		_, err := r.compile(c)
		if err == nil {
			return fmt.Errorf("malformed binary accepted (want %q)", c.Message)
		}
		return notSupported(err, c.Message)
	case "assert_trap":
		if c.Instantiat {
			comp, err := r.compile(c)
			if err != nil {
				return fmt.Errorf("valid component refused: %w", err)
			}
			if _, err := r.instantiate(comp); !isTrap(err) {
				return fmt.Errorf("instantiation: got %v; want a trap (%q)", err, c.Message)
			}
			return nil
		}
		if _, err := r.invoke(c); !isTrap(err) {
			return fmt.Errorf("got %v; want a trap (%q)", err, c.Message)
		}
		return nil
	case "invoke":
		_, err := r.invoke(c)
		return err
	case "assert_return":
		got, err := r.invoke(c)
		if err != nil {
			return err
		}
		want := strings.Join(c.expectedJSON(), ",")
		if got != want {
			return fmt.Errorf("got %s; want %s", got, want)
		}
		return nil
	}
	return fmt.Errorf("unknown command %s", c.Type)
}

func (c refCommand) expectedJSON() []string {
	out := make([]string, len(c.Expected))
	for i, e := range c.Expected {
		out[i] = string(e)
	}
	return out
}

// notSupported: a component refused only because it uses a feature the
// engine lacks has not been checked against the rule it breaks.
func notSupported(err error, want string) error {
	var ns *binary.NotSupportedError
	if errors.As(err, &ns) {
		return fmt.Errorf("refused as not supported (%s), not for the rule (want %q)", ns.Feature, want)
	}
	return nil
}

func isTrap(err error) bool {
	var te *component.TrapError
	return errors.As(err, &te)
}

// invoke calls the export and returns its result as the JSON of its
// s-expression form, or "" for no result.
func (r *refRunner) invoke(c refCommand) (string, error) {
	inst := r.last
	if c.Instance != "" {
		inst = r.insts[c.Instance]
	}
	if inst == nil {
		return "", errors.New("no instance to invoke")
	}
	fn, err := inst.Func(c.Invoke)
	if err != nil {
		return "", err
	}
	ft := fn.Type()
	if len(c.Args) != len(ft.Params) {
		return "", fmt.Errorf("%d arguments for %d parameters", len(c.Args), len(ft.Params))
	}
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		if args[i], err = sexprValue(a, ft.Params[i].Type); err != nil {
			return "", fmt.Errorf("argument %d: %w", i, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := fn.Call(ctx, args...)
	if err != nil || ft.Result == nil {
		return "", err
	}
	// The expected value is rendered through the same type, so both sides
	// are canonical.
	got, err := wit.ToJSON(ft.Result, res)
	if err != nil {
		return "", err
	}
	if len(c.Expected) != 1 {
		return string(got), nil
	}
	want, err := sexprValue(c.Expected[0], ft.Result)
	if err != nil {
		return "", fmt.Errorf("expected value: %w", err)
	}
	wantJSON, err := wit.ToJSON(ft.Result, want)
	if err != nil {
		return "", err
	}
	if string(wantJSON) == string(got) {
		return string(c.Expected[0]), nil
	}
	return string(got), fmt.Errorf("got %s; want %s", got, wantJSON)
}

// sexprValue turns a reference-test value, (u32.const 1), (list.const ...),
// (record.const (field "a" u32.const 1)), ... (as JSON: lists are arrays,
// atoms strings, string literals {"str": ...}), into a value of t.
func sexprValue(raw json.RawMessage, t wit.Type) (any, error) {
	j, err := sexprJSON(raw, t)
	if err != nil {
		return nil, err
	}
	return wit.FromJSON(t, []byte(j))
}

func sexprJSON(raw json.RawMessage, t wit.Type) (string, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		return "", fmt.Errorf("value %s is not a form", raw)
	}
	var head string
	if err := json.Unmarshal(items[0], &head); err != nil {
		return "", fmt.Errorf("value %s has no head", raw)
	}
	rest := items[1:]
	str := func(m json.RawMessage) (string, error) {
		var s struct{ Str *string }
		if err := json.Unmarshal(m, &s); err != nil || s.Str == nil {
			return "", fmt.Errorf("%s is not a string literal", m)
		}
		return *s.Str, nil
	}
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	switch head {
	case "str.const", "char.const", "enum.const":
		s, err := str(rest[0])
		return quote(s), err
	case "bool.const":
		var s string
		json.Unmarshal(rest[0], &s)
		return s, nil
	case "u8.const", "s8.const", "u16.const", "s16.const", "u32.const", "s32.const",
		"u64.const", "s64.const", "f32.const", "f64.const":
		var s string
		json.Unmarshal(rest[0], &s)
		return watNumber(s)
	case "flags.const":
		var names []string
		for _, m := range rest {
			s, err := str(m)
			if err != nil {
				return "", err
			}
			names = append(names, quote(s))
		}
		return "[" + strings.Join(names, ",") + "]", nil
	case "list.const", "tuple.const":
		var parts []string
		for i, m := range rest {
			var et wit.Type
			switch tt := t.(type) {
			case *wit.List:
				et = tt.Elem
			case *wit.Tuple:
				if i < len(tt.Types) {
					et = tt.Types[i]
				}
			}
			s, err := sexprJSON(m, et)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	case "record.const":
		rec, _ := t.(*wit.Record)
		var parts []string
		for _, m := range rest {
			var f []json.RawMessage
			json.Unmarshal(m, &f)
			if len(f) < 3 {
				return "", fmt.Errorf("field %s", m)
			}
			name, err := str(f[1])
			if err != nil {
				return "", err
			}
			inner := f[2]
			if len(f) > 3 {
				inner, _ = json.Marshal(f[2:])
			}
			var ft wit.Type
			if rec != nil {
				for _, rf := range rec.Fields {
					if rf.Name == name {
						ft = rf.Type
					}
				}
			}
			s, err := sexprJSON(inner, ft)
			if err != nil {
				return "", err
			}
			parts = append(parts, quote(name)+":"+s)
		}
		return "{" + strings.Join(parts, ",") + "}", nil
	case "variant.const":
		name, err := str(rest[0])
		if err != nil {
			return "", err
		}
		if len(rest) == 1 {
			return "{" + quote(name) + ":null}", nil
		}
		var pt wit.Type
		if v, ok := t.(*wit.Variant); ok {
			for _, cs := range v.Cases {
				if cs.Name == name {
					pt = cs.Type
				}
			}
		}
		s, err := sexprJSON(rest[1], pt)
		return "{" + quote(name) + ":" + s + "}", err
	case "option.none":
		return "null", nil
	case "option.some":
		o, _ := t.(*wit.Option)
		var pt wit.Type
		if o != nil {
			pt = o.Elem
		}
		s, err := sexprJSON(rest[0], pt)
		if _, nested := pt.(*wit.Option); nested {
			s = `{"some":` + s + "}"
		}
		return s, err
	case "result.ok", "result.err":
		key := strings.TrimPrefix(head, "result.")
		if len(rest) == 0 {
			return `{"` + key + `":null}`, nil
		}
		var pt wit.Type
		if res, ok := t.(*wit.Result); ok {
			pt = res.OK
			if key == "err" {
				pt = res.Err
			}
		}
		s, err := sexprJSON(rest[0], pt)
		return `{"` + key + `":` + s + "}", err
	}
	return "", fmt.Errorf("value form %s not supported by the runner", head)
}

// watNumber renders a wat numeric literal (hex, underscores, inf, nan) as
// JSON.
func watNumber(s string) (string, error) {
	s = strings.ReplaceAll(s, "_", "")
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimLeft(s, "+-")
	switch {
	case body == "inf":
		if neg {
			return `"-Infinity"`, nil
		}
		return `"Infinity"`, nil
	case strings.HasPrefix(body, "nan"):
		return `"NaN"`, nil
	case strings.HasPrefix(body, "0x") && !strings.ContainsAny(body, ".pP"):
		var v uint64
		if _, err := fmt.Sscanf(body[2:], "%x", &v); err != nil {
			return "", err
		}
		if neg {
			return fmt.Sprintf("-%d", v), nil
		}
		return fmt.Sprintf("%d", v), nil
	}
	return s, nil
}

// readReferenceSums checks each pinned .wast and its encoding against
// sums.sha256 and returns the files with their .wast's sum.
func readReferenceSums(t *testing.T) map[string]string {
	t.Helper()
	hint := "run guests/build-reference.sh and commit engine/component/testdata/reference"
	out := pinnedPairs(t, filepath.Join(referenceDir, "sums.sha256"), hint, func(name string) [2]string {
		return [2]string{filepath.Join(referenceDir, "wast", name), filepath.Join(referenceDir, "wast", strings.TrimSuffix(name, ".wast")+".json")}
	})
	if t.Failed() {
		t.FailNow()
	}
	return out
}

// readKnownFailures reads "file:line reason" lines.
func readKnownFailures(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(referenceDir, "known-failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, " ")
		out[key] = strings.TrimSpace(reason)
	}
	return out
}
