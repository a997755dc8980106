package canon

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wit"
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

// BenchmarkToolCallDynamic is the tool call of BenchmarkToolCall on the
// dynamic values of package wit, the path mur's tool calls took before
// they moved to the typed one.
func BenchmarkToolCallDynamic(b *testing.B) {
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

// Go types of the tool call for the typed path.
type (
	toolInputGo struct {
		Data    *string
		LogPath *string
	}
	attachmentGo struct{ MediaType, Path string }
	toolResultGo struct {
		Status      uint8
		Summary     *string
		Data        *string
		DataPath    *string
		Truncated   bool
		Metadata    []struct{ K, V string }
		Attachments []attachmentGo
	}
)

// typedToolCall is toolCall on the typed path: the same values as Go
// values and the FuncCodecs of both functions.
type typedToolCall struct {
	*toolCall
	inC, outC *FuncCodec
	input     toolInputGo
	result    toolResultGo
}

func newTypedToolCall(tb testing.TB) *typedToolCall {
	tc := newToolCall(tb)
	inC, err := NewFuncCodec(tc.in, reflect.TypeFor[toolInputGo](), nil)
	if err != nil {
		tb.Fatal(err)
	}
	outC, err := NewFuncCodec(tc.out, nil, reflect.TypeFor[toolResultGo]())
	if err != nil {
		tb.Fatal(err)
	}
	data := strings.Repeat("0123456789abcdef", 64)
	logPath, summary := "/tmp/tool.log", "all 12 tests passed"
	return &typedToolCall{
		toolCall: tc, inC: inC, outC: outC,
		input: toolInputGo{Data: &data, LogPath: &logPath},
		result: toolResultGo{
			Summary:     &summary,
			Data:        &data,
			Metadata:    []struct{ K, V string }{{"duration", "1.2s"}, {"runner", "go test"}},
			Attachments: []attachmentGo{{"text/plain", "/tmp/out.txt"}},
		},
	}
}

// host is the host-side round trip of a call to a guest tool: lower the
// tool-input as the arguments, lift the tool-result the guest stored at
// its return pointer (stored once beforehand, as the guest would).
func (tc *typedToolCall) host(ctx context.Context, e *env, top uint32, stack []uint64, out *toolResultGo) error {
	e.bump.top = top
	if _, err := tc.inC.LowerArgs(ctx, e.opts, &tc.input, stack); err != nil {
		return err
	}
	return tc.outC.LiftResult(ctx, e.opts, []uint64{bumpBase}, out)
}

// hostDynamic is host with dynamic values.
func (tc *typedToolCall) hostDynamic(ctx context.Context, e *env, top uint32, stack []uint64) error {
	e.bump.top = top
	if _, err := tc.in.LowerArgs(ctx, e.opts, tc.toolCall.input, stack); err != nil {
		return err
	}
	_, err := tc.out.LiftResult(ctx, e.opts, []uint64{bumpBase})
	return err
}

// full is toolCall.run on the typed path: all four directions.
func (tc *typedToolCall) full(ctx context.Context, e *env, stack []uint64, in *toolInputGo, out *toolResultGo) error {
	e.bump.reset()
	stack, err := tc.inC.LowerArgs(ctx, e.opts, &tc.input, stack)
	if err != nil {
		return err
	}
	if err := tc.inC.LiftArgs(ctx, e.opts, stack, in); err != nil {
		return err
	}
	retptr := uint64(bumpBase)
	e.bump.top = bumpBase + 64
	if err := tc.outC.LowerResult(ctx, e.opts, &tc.result, []uint64{retptr}, nil); err != nil {
		return err
	}
	return tc.outC.LiftResult(ctx, e.opts, []uint64{retptr}, out)
}

// storeResult puts the tool-result at bumpBase, as a guest would before
// returning it, and returns the first free address after it.
func (tc *typedToolCall) storeResult(tb testing.TB, ctx context.Context, e *env) uint32 {
	e.bump.reset()
	e.bump.top = bumpBase + 64
	if err := tc.out.LowerResult(ctx, e.opts, tc.toolCall.result, []uint64{bumpBase}, nil); err != nil {
		tb.Fatal(err)
	}
	return e.bump.top
}

func TestToolCallTyped(t *testing.T) {
	ctx := context.Background()
	tc := newTypedToolCall(t)
	for _, enc := range []StringEncoding{UTF8, UTF16, Latin1UTF16} {
		e := newEnv(t, enc)
		var in toolInputGo
		var out toolResultGo
		if err := tc.full(ctx, e, nil, &in, &out); err != nil {
			t.Fatal(enc, err)
		}
		if !reflect.DeepEqual(in, tc.input) || !reflect.DeepEqual(out, tc.result) {
			t.Fatalf("%s: got %+v %+v", enc, in, out)
		}
		// The typed lift agrees with the dynamic one.
		got, err := tc.out.LiftResult(ctx, e.opts, []uint64{bumpBase})
		if err != nil || !equal(tc.out.Result(), tc.toolCall.result, got) {
			t.Fatal(enc, got, err)
		}
		top := tc.storeResult(t, ctx, e)
		out = toolResultGo{}
		if err := tc.host(ctx, e, top, nil, &out); err != nil || !reflect.DeepEqual(out, tc.result) {
			t.Fatal(enc, out, err)
		}
	}
}

// BenchmarkToolCall is issue 30's "host lift + lower of a tool call" on
// the path mur's WASM tools take (the typed one, as internal/tools calls
// it, with Go types of the same shape): the four directions of a call
// with a 1 KiB input and result, lower tool-input, lift it as the guest
// would, lower tool-result as the guest would, lift it.
// BenchmarkToolCallDynamic is the same on dynamic values.
func BenchmarkToolCall(b *testing.B) {
	ctx := context.Background()
	tc := newTypedToolCall(b)
	for _, enc := range []StringEncoding{UTF8, UTF16, Latin1UTF16} {
		b.Run(enc.String(), func(b *testing.B) {
			e := newEnv(b, enc)
			stack := make([]uint64, 16)
			var in toolInputGo
			var out toolResultGo
			b.ReportAllocs()
			for b.Loop() {
				if err := tc.full(ctx, e, stack, &in, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkToolCallHost is the host's half alone (lower a 1 KiB
// tool-input, lift a tool-result the guest stored beforehand), typed and
// on dynamic values.
func BenchmarkToolCallHost(b *testing.B) {
	ctx := context.Background()
	tc := newTypedToolCall(b)
	b.Run("typed", func(b *testing.B) {
		e := newEnv(b, UTF8)
		top := tc.storeResult(b, ctx, e)
		stack := make([]uint64, 16)
		var out toolResultGo
		b.ReportAllocs()
		for b.Loop() {
			if err := tc.host(ctx, e, top, stack, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dynamic", func(b *testing.B) {
		e := newEnv(b, UTF8)
		top := tc.storeResult(b, ctx, e)
		stack := make([]uint64, 16)
		b.ReportAllocs()
		for b.Loop() {
			if err := tc.hostDynamic(ctx, e, top, stack); err != nil {
				b.Fatal(err)
			}
		}
	})
}
