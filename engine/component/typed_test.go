package component_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

type attachment struct {
	MediaType string
	Path      string
}

type toolInput struct {
	Data    *string
	LogPath *string
}

type toolOutput struct {
	Status      uint8
	Summary     *string
	Data        *string
	DataPath    *string
	Truncated   bool
	Metadata    []struct{ K, V string }
	Attachments []attachment
}

func toolRunType() *wit.Func {
	optStr := &wit.Option{Elem: wit.String}
	return &wit.Func{
		Params: []wit.Param{{Name: "input", Type: &wit.Record{Fields: []wit.Field{{Name: "data", Type: optStr}, {Name: "log-path", Type: optStr}}}}},
		Result: &wit.Record{Fields: []wit.Field{
			{Name: "status", Type: &wit.Enum{Cases: []string{"passed", "failed", "error"}}},
			{Name: "summary", Type: optStr},
			{Name: "data", Type: optStr},
			{Name: "data-path", Type: optStr},
			{Name: "truncated", Type: wit.Bool},
			{Name: "metadata", Type: &wit.List{Elem: &wit.Tuple{Types: []wit.Type{wit.String, wit.String}}}},
			{Name: "attachments", Type: &wit.List{Elem: &wit.Record{Fields: []wit.Field{{Name: "media-type", Type: wit.String}, {Name: "path", Type: wit.String}}}}},
		}},
	}
}

func TestTypedHostFunc(t *testing.T) {
	hf, err := component.HostFuncOf(toolRunType(), func(ctx context.Context, s *component.Store, in toolInput) (toolOutput, error) {
		sum := "got " + *in.Data
		return toolOutput{
			Status:      1,
			Summary:     &sum,
			DataPath:    in.LogPath,
			Truncated:   true,
			Metadata:    []struct{ K, V string }{{"k", "v"}},
			Attachments: []attachment{{"text/plain", "a.txt"}},
		}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := hf(context.Background(), nil, []any{[]any{wit.Some("x"), wit.None()}})
	if err != nil {
		t.Fatal(err)
	}
	want := []any{uint32(1), wit.Some("got x"), wit.None(), wit.None(), true,
		[]any{[]any{"k", "v"}}, []any{[]any{"text/plain", "a.txt"}}}
	if !equalValues(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}

func TestTypedHostFuncSignatureChecks(t *testing.T) {
	ft := &wit.Func{Params: []wit.Param{{Name: "n", Type: wit.U32}}, Result: wit.String}
	tests := []struct {
		name string
		fn   any
		want string
	}{
		{"not a func", 42, "want a func"},
		{"missing store", func(ctx context.Context, n uint32) (string, error) { return "", nil }, "want func(context.Context, *component.Store, <1 params>)"},
		{"wrong param kind", func(ctx context.Context, s *component.Store, n int64) (string, error) { return "", nil }, `parameter "n": WIT u32 cannot be received as Go int64`},
		{"no error result", func(ctx context.Context, s *component.Store, n uint32) string { return "" }, "want 2 results ending in error"},
		{"wrong result", func(ctx context.Context, s *component.Store, n uint32) (int, error) { return 0, nil }, "result: Go int cannot be returned as WIT string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := component.HostFuncOf(ft, tt.fn)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestTypedHostFuncPassesErrors(t *testing.T) {
	boom := errors.New("boom")
	hf, err := component.HostFuncOf(&wit.Func{}, func(ctx context.Context, s *component.Store) error { return boom })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hf(context.Background(), nil, nil); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
}
