package wasip2

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

func bindHost() *host {
	return newHost(component.NewLinker(), func(*component.Store) *Ctx { return nil }, map[string]hostFn{})
}

// TestBindRefusesMismatches: a Go signature that does not carry the WIT
// type is Register's error, naming the function, the place and the types.
func TestBindRefusesMismatches(t *testing.T) {
	type swappedHash struct{ Upper, Lower uint64 }
	type shortStat struct {
		Type      uint32
		LinkCount uint64
	}
	type variantNoCase struct{ Other string }
	type variantMissing struct{ Case uint32 }
	cases := []struct {
		name string
		def  func(h *host)
		want []string
	}{
		{"primitive", func(h *host) {
			def1(h, "x:y/z", "f", fn(nil, param("len", wit.U64)), func(context.Context, *Ctx, uint32) (unit, error) { return unit{}, nil })
		}, []string{"x:y/z#f", `parameter "len"`, "WIT u64 cannot be Go uint32"}},
		{"arity", func(h *host) {
			def1(h, "x:y/z", "f", fn(nil), func(context.Context, *Ctx, uint64) (unit, error) { return unit{}, nil })
		}, []string{"x:y/z#f", "0 parameters, the Go function 1"}},
		{"no result", func(h *host) {
			def0(h, "x:y/z", "f", fn(nil), func(context.Context, *Ctx) (bool, error) { return false, nil })
		}, []string{"no result", "not bool"}},
		{"record names", func(h *host) {
			def0(h, "x:y/z", "f", fn(h.t.metaHash), func(context.Context, *Ctx) (swappedHash, error) { return swappedHash{}, nil })
		}, []string{"result", "field 0 is Upper", `"lower"`}},
		{"record size", func(h *host) {
			def0(h, "x:y/z", "f", fn(h.t.descStat), func(context.Context, *Ctx) (shortStat, error) { return shortStat{}, nil })
		}, []string{"want 6 fields, the struct has 2"}},
		{"handle", func(h *host) {
			def1(h, "x:y/z", "f", fn(nil, self(h.t.descriptor)), func(context.Context, *Ctx, *inputStream) (unit, error) { return unit{}, nil })
		}, []string{`parameter "self"`, "handle to descriptor is Go *wasip2.descriptor, not *wasip2.inputStream"}},
		{"borrow result", func(h *host) {
			def0(h, "x:y/z", "f", fn(borrow(h.t.descriptor)), func(context.Context, *Ctx) (*descriptor, error) { return nil, nil })
		}, []string{"cannot return a borrowed handle"}},
		{"option", func(h *host) {
			def0(h, "x:y/z", "f", fn(option(wit.String)), func(context.Context, *Ctx) (*string, error) { return nil, nil })
		}, []string{"option<string> cannot be Go *string", "opt[…]"}},
		{"result side", func(h *host) {
			def0(h, "x:y/z", "f", fn(result(nil, h.t.fsErrorCode)), func(context.Context, *Ctx) (res[uint64, uint32], error) { return res[uint64, uint32]{}, nil })
		}, []string{"no payload", "not uint64"}},
		{"result error", func(h *host) {
			def0(h, "x:y/z", "f", fn(result(nil, h.t.fsErrorCode)), func(context.Context, *Ctx) (res[unit, string], error) { return res[unit, string]{}, nil })
		}, []string{"error", "cannot be Go string"}},
		{"variant case", func(h *host) {
			def0(h, "x:y/z", "f", fn(h.t.method), func(context.Context, *Ctx) (variantNoCase, error) { return variantNoCase{}, nil })
		}, []string{"first field is Case uint32"}},
		{"variant payload", func(h *host) {
			def0(h, "x:y/z", "f", fn(h.t.method), func(context.Context, *Ctx) (variantMissing, error) { return variantMissing{}, nil })
		}, []string{`no field for the payload of case "other"`}},
		{"nested", func(h *host) {
			def0(h, "x:y/z", "f", fn(list(tuple(own(h.t.descriptor), wit.String))), func(context.Context, *Ctx) (listOf[struct {
				D *fields
				P string
			}], error) {
				return nil, nil
			})
		}, []string{"handle to descriptor is Go *wasip2.descriptor, not *wasip2.fields"}},
		{"list", func(h *host) {
			def0(h, "x:y/z", "f", fn(list(wit.String)), func(context.Context, *Ctx) ([]string, error) { return nil, nil })
		}, []string{"list<string> cannot be Go []string", "listOf[…]"}},
		{"list of bytes", func(h *host) {
			def0(h, "x:y/z", "f", fn(list(wit.U8)), func(context.Context, *Ctx) (listOf[uint8], error) { return nil, nil })
		}, []string{"want []byte"}},
		{"refuse", func(h *host) {
			refuse(h, "x:y/z", "f", fn(result(nil, h.t.fsErrorCode)), "denied")
		}, []string{"result error", "cannot be Go string"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := bindHost()
			tc.def(h)
			if h.err == nil {
				t.Fatal("defined")
			}
			for _, w := range tc.want {
				if !strings.Contains(h.err.Error(), w) {
					t.Errorf("error %q does not say %q", h.err, w)
				}
			}
			if len(h.record) != 0 {
				t.Errorf("the function was defined anyway")
			}
		})
	}
}

// TestBindRefusesWrongValues: a call whose arguments are not of the WIT
// type's representation traps naming the parameter; nothing is read as a
// zero value.
func TestBindRefusesWrongValues(t *testing.T) {
	h := testHost(t)
	c, err := NewCtx(Grants{Stdin: []byte("data")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	in := h.call(t, c, "wasi:cli/stdin#get-stdin").(wit.Resource)
	out := c.newRes(h.t.outputStream, &outputStream{s: &stdoutStream{w: c.stdout}})
	cases := []struct {
		name string
		args []any
		want string
	}{
		{"wasi:io/streams#[method]input-stream.read", []any{in, uint32(4)}, `parameter "len": wasip2: Go uint32 is not a value of WIT u64`},
		{"wasi:io/streams#[method]input-stream.read", []any{in, nil}, `parameter "len"`},
		{"wasi:io/streams#[method]output-stream.write", []any{out, "text"}, `parameter "contents"`},
		{"wasi:io/streams#[method]input-stream.read", []any{out, uint64(4)}, `parameter "self"`},
		{"wasi:io/poll#poll", []any{[]any{uint32(1)}}, `parameter "in"`},
		{"wasi:http/types#[method]outgoing-request.set-method", []any{wit.Resource{}, wit.VariantValue{Case: 10}}, `parameter "self"`},
	}
	for _, tc := range cases {
		v, err := h.record[tc.name](context.Background(), c, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s%v = %v, %v; want an error saying %q", tc.name, tc.args, v, err, tc.want)
		}
	}
	// A handle of the wrong kind is still the engine's bad-handle trap.
	if _, err := h.record["wasi:io/streams#[method]input-stream.read"](context.Background(), c, []any{out, uint64(4)}); !errors.Is(err, errBadHandle) {
		t.Errorf("wrong handle: %v", err)
	}
	// The stream was never read by the refused calls.
	v := h.call(t, c, "wasi:io/streams#[method]input-stream.read", in, uint64(16)).(wit.ResultValue)
	if v.Err || string(v.Value.([]byte)) != "data" {
		t.Errorf("read after refused calls: %#v", v)
	}
}

// TestBindVariantCase: a variant whose Go case is out of range fails the
// call instead of handing the guest a value of no case.
func TestBindVariantCase(t *testing.T) {
	h := bindHost()
	def0(h, "x:y/z", "f", fn(h.t.method), func(context.Context, *Ctx) (httpMethod, error) { return httpMethod{Case: 10}, nil })
	if h.err != nil {
		t.Fatal(h.err)
	}
	if _, err := h.record["x:y/z#f"](context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "case 10 of method, which has 10") {
		t.Fatalf("err = %v", err)
	}
}
