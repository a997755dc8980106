package hooks

import (
	"context"
	"time"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/agent/observe"
)

// call is in.call with the call's start and end reported to the
// session's observer (Options.Observer), blocking and async hooks alike:
// a hook that does not export fn is not called and reports nothing. What
// a hook's error says reaches the observer without the session's
// secrets.
func (r *Runtime) call(ctx context.Context, in *instance, fn string, args []any) (wit.VariantValue, bool, error) {
	obs := r.opts.Observer
	if obs == nil || in.funcs[fn] == nil {
		return in.call(ctx, fn, args)
	}
	start := time.Now()
	obs.Observe(observe.Event{Kind: observe.HookStart, Time: start, Name: in.spec.name, HookEvent: fn})
	v, absent, err := in.call(ctx, fn, args)
	e := observe.Event{Kind: observe.HookEnd, Name: in.spec.name, HookEvent: fn, Status: "ok", Duration: time.Since(start)}
	e.Time = start.Add(e.Duration)
	if err != nil {
		e.Status, e.Err = "error", r.s.Secrets().String(err.Error())
	}
	obs.Observe(e)
	return v, absent, err
}
