package hooks

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
)

// hookSpec is one staged hook: what staging verified and granted.
type hookSpec struct {
	name, version string
	binding       string // "" = every session event
	async         bool
	blockOverflow bool
	comp          *component.Component
	limits        component.Limits
	grants        wasip2.Grants
	// grantErr is why its grants could not be set up: it cannot be
	// instantiated.
	grantErr error
}

// matches reports whether the hook's binding covers event fn. An omitted
// binding matches every event that reaches dispatch.
func (h *hookSpec) matches(fn string) bool { return h.binding == "" || h.binding == fn }

// hookStore is a hook store's data: its WASI context, and what the
// run-inference host function needs to know about the call in progress.
type hookStore struct {
	wasi    *wasip2.Ctx
	hook    string
	serving string // the lifecycle function being called
}

// instance is one instantiated hook: blocking hooks and async workers each
// keep theirs for the whole session; on-stage makes a throwaway one.
type instance struct {
	spec     *hookSpec
	contract *contract
	store    *component.Store
	data     *hookStore
	inst     *component.Instance
	funcs    map[string]*bound
	// mu serialises calls: a store runs one call at a time.
	mu sync.Mutex
}

// resolveVersion finds the lifecycle instance the component exports, by
// exact versioned name only (wit.md §2.1).
func resolveVersion(h *hookSpec, w *wit.World) (Version, error) {
	var other string
	unversioned := false
	for _, e := range w.Exports {
		if e.Kind != wit.ExternInstance {
			continue
		}
		for _, v := range hostedVersions {
			if e.Name == v.Instance() {
				return v, nil
			}
		}
		switch {
		case e.Name == lifecycleIface:
			unversioned = true
		case strings.HasPrefix(e.Name, lifecycleIface+"@") && other == "":
			other = e.Name
		}
	}
	if other != "" {
		return "", errUnhosted(h, other)
	}
	return "", errMissingExport(h, unversioned)
}

// instantiate builds a store with the hook's grants and limits, resolves
// its lifecycle instance and function table. fns are the functions to look
// up: required ones must exist, the rest are kept when present.
func (r *Runtime) instantiate(ctx context.Context, h *hookSpec, required, optional []string) (*instance, error) {
	if h.grantErr != nil {
		return nil, errInstantiate(h, h.grantErr)
	}
	wctx, err := wasip2.NewCtx(h.grants)
	if err != nil {
		return nil, errInstantiate(h, err)
	}
	data := &hookStore{wasi: wctx, hook: h.name}
	store := &component.Store{Limits: h.limits, Data: data}
	inst, err := r.linker.Instantiate(ctx, h.comp, store)
	if err != nil {
		wctx.Close()
		return nil, errInstantiate(h, err)
	}
	fail := func(err error) (*instance, error) {
		inst.Close(context.WithoutCancel(ctx))
		wctx.Close()
		return nil, err
	}
	v, err := resolveVersion(h, h.comp.World())
	if err != nil {
		return fail(err)
	}
	in := &instance{spec: h, contract: r.contracts[v], store: store, data: data, inst: inst,
		funcs: make(map[string]*bound, len(required)+len(optional))}
	subject := func(fn string) string { return fmt.Sprintf("hook '%s' %s", h.name, fn) }
	// Resolution is by name; the signature check is kept as each call's
	// error, so a wrong one fails that call and not the session (§6.2).
	bind := func(fn string, f *component.Func) {
		b := &bound{f: f, subject: subject(fn)}
		if err := funcMatches(f.Type(), in.contract.funcs[fn]); err != nil {
			b.typeErr = fmt.Errorf("%s: %w", b.subject, err)
		}
		in.funcs[fn] = b
	}
	for _, fn := range required {
		f, err := inst.Func(v.Instance() + "#" + fn)
		if err != nil {
			return fail(errMissingFunction(h, v, fn))
		}
		bind(fn, f)
	}
	for _, fn := range optional {
		if f, err := inst.Func(v.Instance() + "#" + fn); err == nil {
			bind(fn, f)
		}
	}
	return in, nil
}

// bound is one resolved lifecycle function.
type bound struct {
	f       *component.Func
	subject string
	typeErr error
}

// call invokes lifecycle function fn with the event record. absent is true
// when an optional function is not exported (silently skipped). Every
// failure, the hook's own err included, is the log line for it.
func (in *instance) call(ctx context.Context, fn string, event []any) (out wit.VariantValue, absent bool, err error) {
	b := in.funcs[fn]
	if b == nil {
		return wit.VariantValue{}, true, nil
	}
	if b.typeErr != nil {
		return wit.VariantValue{}, false, b.typeErr
	}
	subject := b.subject
	in.mu.Lock()
	defer in.mu.Unlock()
	in.data.serving = fn
	defer func() { in.data.serving = "" }()
	// The store's deadline applies to this call alone: a long-lived hook
	// store gets a fresh budget per lifecycle call.
	v, err := b.f.Call(ctx, event)
	if err != nil {
		return wit.VariantValue{}, false, fmt.Errorf("%s", callFailure(subject, in.spec.limits, err))
	}
	res, ok := v.(wit.ResultValue)
	if !ok {
		return wit.VariantValue{}, false, fmt.Errorf("%s returned %T, not a result", subject, v)
	}
	if res.Err {
		msg, _ := res.Value.(string)
		return wit.VariantValue{}, false, &hookErr{msg: msg}
	}
	out, ok = res.Value.(wit.VariantValue)
	if !ok {
		return wit.VariantValue{}, false, fmt.Errorf("%s returned %T, not a hook-output", subject, res.Value)
	}
	return out, false, nil
}

// hookErr is the err a hook returned itself: logged as its text.
type hookErr struct{ msg string }

func (e *hookErr) Error() string { return e.msg }

func (in *instance) close(ctx context.Context) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.inst.Close(context.WithoutCancel(ctx))
	in.data.wasi.Close()
}

// funcMatches is the typed-func check, worded as Murmur's.
func funcMatches(got, want *wit.Func) error {
	if len(got.Params) != len(want.Params) {
		return fmt.Errorf("type mismatch with parameters: %d, want %d", len(got.Params), len(want.Params))
	}
	for i := range got.Params {
		if err := component.TypesMatch(got.Params[i].Type, want.Params[i].Type); err != nil {
			return fmt.Errorf("type mismatch with parameters: %s: %w", want.Params[i].Name, err)
		}
	}
	if got.Result == nil {
		return fmt.Errorf("type mismatch with results: the function returns nothing")
	}
	if err := component.TypesMatch(got.Result, want.Result); err != nil {
		return fmt.Errorf("type mismatch with results: %w", err)
	}
	return nil
}
