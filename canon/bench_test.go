package canon

import (
	"context"
	"strings"
	"testing"

	"github.com/mur-go/mur/wit"
)

func toolResultType() *wit.Record {
	return rec(
		"status", &wit.Enum{Cases: []string{"passed", "failed", "error"}},
		"summary", opt(wit.String),
		"data", opt(wit.String),
		"data-path", opt(wit.String),
		"truncated", wit.Bool,
		"metadata", list(tup(wit.String, wit.String)),
		"attachments", list(rec("media-type", wit.String, "path", wit.String)),
	)
}

// toolCall is a host-side tool call: the tool-input lowered as the
// arguments of a guest export and lifted back as the guest would receive
// them, then a tool-result stored through a return pointer and lifted.
type toolCall struct {
	in, out *Func
	input   []any
	result  any
}

func newToolCall(tb testing.TB) *toolCall {
	data := strings.Repeat("0123456789abcdef", 64) // 1 KiB
	return &toolCall{
		in:    mustFunc(tb, &wit.Func{Params: []wit.Param{{Name: "input", Type: toolInputType()}}}),
		out:   mustFunc(tb, &wit.Func{Result: toolResultType()}),
		input: []any{[]any{wit.Some(data), wit.Some("/tmp/tool.log")}},
		result: []any{
			uint32(0),
			wit.Some("all 12 tests passed"),
			wit.Some(data),
			wit.None(),
			false,
			[]any{[]any{"duration", "1.2s"}, []any{"runner", "go test"}},
			[]any{[]any{"text/plain", "/tmp/out.txt"}},
		},
	}
}

func (tc *toolCall) run(ctx context.Context, e *env, stack []uint64) ([]uint64, error) {
	e.bump.reset()
	stack, err := tc.in.LowerArgs(ctx, e.opts, tc.input, stack)
	if err != nil {
		return stack, err
	}
	if _, err := tc.in.LiftArgs(ctx, e.opts, stack); err != nil {
		return stack, err
	}
	retptr := uint64(bumpBase)
	e.bump.top = bumpBase + 64
	if err := tc.out.LowerResult(ctx, e.opts, tc.result, []uint64{retptr}, nil); err != nil {
		return stack, err
	}
	_, err = tc.out.LiftResult(ctx, e.opts, []uint64{retptr})
	return stack, err
}

func TestToolCall(t *testing.T) {
	ctx := context.Background()
	tc := newToolCall(t)
	for _, enc := range []StringEncoding{UTF8, UTF16, Latin1UTF16} {
		e := newEnv(t, enc)
		if _, err := tc.run(ctx, e, nil); err != nil {
			t.Fatal(enc, err)
		}
		got, err := tc.out.LiftResult(ctx, e.opts, []uint64{bumpBase})
		if err != nil || !equal(tc.out.Result(), tc.result, got) {
			t.Fatal(enc, got, err)
		}
	}
}

func BenchmarkToolCall(b *testing.B) {
	ctx := context.Background()
	tc := newToolCall(b)
	for _, enc := range []StringEncoding{UTF8, UTF16, Latin1UTF16} {
		b.Run(enc.String(), func(b *testing.B) {
			e := newEnv(b, enc)
			stack := make([]uint64, 16)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tc.run(ctx, e, stack); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkToolInput(b *testing.B) {
	ctx := context.Background()
	tc := newToolCall(b)
	e := newEnv(b, UTF8)
	stack := make([]uint64, 16)
	b.ReportAllocs()
	for b.Loop() {
		e.bump.reset()
		s, err := tc.in.LowerArgs(ctx, e.opts, tc.input, stack)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tc.in.LiftArgs(ctx, e.opts, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToolResult(b *testing.B) {
	ctx := context.Background()
	tc := newToolCall(b)
	e := newEnv(b, UTF8)
	retptr := []uint64{bumpBase}
	b.ReportAllocs()
	for b.Loop() {
		e.bump.reset()
		e.bump.top = bumpBase + 64
		if err := tc.out.LowerResult(ctx, e.opts, tc.result, retptr, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := tc.out.LiftResult(ctx, e.opts, retptr); err != nil {
			b.Fatal(err)
		}
	}
}
