package agent

import (
	"cmp"
	"context"
	"errors"

	"github.com/mur-go/mur/internal/agent/inference"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/tools"
)

// originTurn is the origin of the loop's own driver calls in the retry,
// usage and spend records.
const originTurn = "turn"

// driverCall is a driver call that ended the retries: its answer, and
// for a passed one its raw text, parsed response and output estimate.
type driverCall struct {
	res      tools.ToolResult
	raw      string
	r        response
	outTok   uint64
	usage    inference.Usage
	reported bool
}

// callDriver is steps 5–8 of a turn wrapped in the spend meter and the
// retry policy (beyond Murmur 0.2.0, session.md §13): each call admitted
// against inTok plus the output cap, a transient failure (dispatch
// failure, non-passed status, stop_reason error) recorded and sent again
// after its backoff, every call charged. A non-nil end is a failure that
// ends the attempt the way step 7 does; a non-nil error is Murmur's Err.
// A final stop_reason error is returned as a call, for steps 10–11.
func (l *loop) callDriver(ctx context.Context, a *attemptRun, turn uint32, wire payload, inTok uint64) (driverCall, *attemptEnd, error) {
	inf := l.s.Capsule.Inference
	for attempt := 1; ; attempt++ {
		if err := l.meter.Admit(inTok + uint64(inf.EffectiveMaxTokens())); err != nil {
			end, err := l.refuseSpend(a, turn, err)
			return driverCall{}, end, err
		}
		dctx := ctx
		if a.watch != nil {
			a.watch.reset()
			dctx = tools.WithTaskIO(ctx, a.watch)
		}
		res, err := l.o.Driver.Invoke(dctx, tools.ToolInput{Data: &wire.json})
		// The call's chunk stream ended with it.
		a.out.flush(ctx)
		if err != nil {
			if cerr := cancelled(ctx); cerr != nil {
				return driverCall{}, nil, cerr
			}
			l.meter.Charge(inTok)
			f := inference.Failure{Reason: inference.ReasonDispatch, Err: err.Error()}
			again, rerr := l.retry(ctx, turn, attempt, f, inTok)
			if rerr != nil {
				return driverCall{}, nil, rerr
			}
			if again {
				continue
			}
			e := failure(KindDriver, err, "driver invocation failed: %v", err)
			a.events.Status(StatusEvent{State: "failed", Message: e.Msg, Final: true})
			return driverCall{}, nil, e
		}
		get := func(k string) string { return metadata(res.Metadata, k) }
		raw := res.Data
		if raw == nil {
			raw = res.Summary
		}
		if res.Status != tools.StatusPassed {
			msg := "driver returned error"
			if raw != nil {
				msg = *raw
			}
			charged := l.chargeFailed(raw, inTok)
			// The record prefers the summary: by the driver convention it
			// is the error's text, where data wraps it in a response.
			f := inference.FromMetadata(inference.ReasonDriverError, cmp.Or(deref(res.Summary), msg), get)
			again, rerr := l.retry(ctx, turn, attempt, f, charged)
			if rerr != nil {
				return driverCall{}, nil, rerr
			}
			if again {
				continue
			}
			e := failure(KindDriver, nil, "%s", msg)
			if credentialRejected(res) {
				e = &diag.Error{Code: CodeCredentialRejected, Err: KindCredentialRejected,
					Msg: "the provider rejected the credential (check inference.api_key; not retried): " + msg}
			}
			end, err := l.endFailed(a, e, endFailed)
			return driverCall{}, &end, err
		}
		// A malformed answer is never retried: the same request would
		// most likely get the same answer.
		if raw == nil {
			l.meter.Charge(inTok)
			return driverCall{}, nil, failure(KindResponse, nil, "driver returned no data")
		}
		r, err := parseResponse(*raw)
		if err != nil {
			l.meter.Charge(inTok)
			return driverCall{}, nil, failure(KindResponse, err, "%v", err)
		}
		c := driverCall{res: res, raw: *raw, r: r, outTok: l.tok.Count(*raw)}
		c.usage, c.reported = inference.ParseUsage(*raw)
		if r.StopReason == stopError {
			charged := inference.SettleFailed(c.usage, c.reported, inTok)
			l.meter.Charge(charged)
			f := inference.FromMetadata(inference.ReasonModelError, r.Error, get)
			again, rerr := l.retry(ctx, turn, attempt, f, charged)
			if rerr != nil {
				return driverCall{}, nil, rerr
			}
			if again {
				continue
			}
			return c, nil, nil
		}
		l.meter.Charge(inference.Settle(c.usage, c.reported, inTok, c.outTok))
		return c, nil, nil
	}
}

// chargeFailed charges a failed call its reported usage, else its input
// estimate, and returns the charge.
func (l *loop) chargeFailed(raw *string, inTok uint64) uint64 {
	var u inference.Usage
	var ok bool
	if raw != nil {
		u, ok = inference.ParseUsage(*raw)
	}
	charged := inference.SettleFailed(u, ok, inTok)
	l.meter.Charge(charged)
	return charged
}

// retry decides on failed call number attempt: when the policy sends it
// again, the inference_retry record is written and the backoff waited
// (again is true); a cancellation during the wait is the error.
func (l *loop) retry(ctx context.Context, turn uint32, attempt int, f inference.Failure, charged uint64) (again bool, err error) {
	delay, nerr := l.policy.Next(ctx, attempt-1, f)
	if nerr != nil {
		if attempt > 1 || errors.Is(nerr, inference.ErrPastDeadline) {
			l.log.Info("driver call not retried", "turn", turn, "attempt", attempt, "why", nerr)
		}
		return false, nil
	}
	rec := retryRecord(originTurn, turn, &HookRetry{Attempt: uint32(attempt), MaxRetries: uint32(l.policy.MaxRetries),
		Reason: f.Reason, ProviderStatus: f.ProviderStatus, Error: f.Err, Delay: delay, RetryAfter: f.RetryAfter, ChargedTokens: charged})
	if err := l.tr.Write(trace.TypeInferenceRetry, rec); err != nil {
		return false, traceFailed(err)
	}
	l.log.Info("driver call failed; retrying after a backoff", "turn", turn, "attempt", attempt, "reason", f.Reason, "delay_ms", rec.DelayMS)
	if err := l.policy.Wait(ctx, delay); err != nil {
		return false, cancelled(ctx)
	}
	return true, nil
}

// retryRecord is the inference_retry record of r.
func retryRecord(origin string, turn uint32, r *HookRetry) *trace.InferenceRetry {
	rec := &trace.InferenceRetry{Origin: origin, Turn: turn, Attempt: r.Attempt, MaxRetries: r.MaxRetries,
		Reason: r.Reason, Error: r.Error, DelayMS: durMS(r.Delay), ChargedTokens: r.ChargedTokens}
	if r.ProviderStatus > 0 && r.ProviderStatus <= 0xffff {
		s := uint16(r.ProviderStatus)
		rec.ProviderStatus = &s
	}
	if r.RetryAfter > 0 {
		ms := durMS(r.RetryAfter)
		rec.RetryAfterMS = &ms
	}
	return rec
}

// refuseSpend ends the attempt at the spend ceiling: the
// spend_ceiling_reached record, the refusal as the failure.
func (l *loop) refuseSpend(a *attemptRun, turn uint32, err error) (*attemptEnd, error) {
	var ce *inference.CeilingError
	if !errors.As(err, &ce) {
		return nil, failure(KindSpendCeiling, err, "%v", err)
	}
	if werr := l.tr.Write(trace.TypeSpendCeilingReached, &trace.SpendCeilingReached{Origin: originTurn, Turn: turn,
		MaxSessionTokens: ce.Limit, SpentTokens: ce.Spent, RequestedTokens: ce.Requested}); werr != nil {
		return nil, traceFailed(werr)
	}
	end, eerr := l.endFailed(a, &diag.Error{Code: CodeRun, Err: diag.Mark(err, KindSpendCeiling), Msg: err.Error()}, endFailed)
	return &end, eerr
}

// writeUsage records the provider's usage of a call beside its inference
// record (§13: beside, never instead of, the runtime's counts).
func (l *loop) writeUsage(turn uint32, c driverCall) {
	if !c.reported {
		return
	}
	u := c.usage
	l.writeLogged(trace.TypeInferenceUsage, &trace.InferenceUsage{Origin: originTurn, Turn: turn, InputTokens: u.InputTokens,
		OutputTokens: u.OutputTokens, CachedTokens: u.CachedTokens, CacheWriteTokens: u.CacheWriteTokens, ThinkingTokens: u.ThinkingTokens})
}
