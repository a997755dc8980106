package wasip2

import (
	"context"
	"io"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// BenchmarkHostCalls is the host's share (no engine) of calls guests make
// often, each through the conversion it exercises: a borrowed handle and a
// u64 in, a result of list<u8> or u64 out; a list of handles in and of u32
// out; a record of options out; strings and bytes in.
func BenchmarkHostCalls(b *testing.B) {
	type call struct {
		name string
		args []any
	}
	cases := []struct {
		name  string
		calls func(h *host, c *Ctx) []call
	}{
		{"read-4K", func(h *host, c *Ctx) []call {
			in := c.newRes(h.t.inputStream, &inputStream{s: zeroIn{}, most: 4096})
			return []call{{"wasi:io/streams#[method]input-stream.read", []any{in, uint64(4096)}}}
		}},
		{"check-write", func(h *host, c *Ctx) []call {
			out := c.newRes(h.t.outputStream, &outputStream{s: &stdoutStream{w: c.stdout}})
			return []call{{"wasi:io/streams#[method]output-stream.check-write", []any{out}}}
		}},
		{"poll-2", func(h *host, c *Ctx) []call {
			ps := []any{c.newRes(h.t.pollable, &pollable{src: alwaysReady{}}), c.newRes(h.t.pollable, &pollable{src: alwaysReady{}})}
			return []call{{"wasi:io/poll#poll", []any{ps}}}
		}},
		{"stat", func(h *host, c *Ctx) []call {
			v, err := h.record["wasi:filesystem/preopens#get-directories"](context.Background(), c, nil)
			if err != nil {
				b.Fatal(err)
			}
			return []call{{"wasi:filesystem/types#[method]descriptor.stat", []any{v.([]any)[0].([]any)[0]}}}
		}},
		{"fields-append-delete", func(h *host, c *Ctx) []call {
			f := c.newRes(h.t.fields, &fields{})
			return []call{
				{"wasi:http/types#[method]fields.append", []any{f, "content-type", []byte("application/json")}},
				{"wasi:http/types#[method]fields.delete", []any{f, "content-type"}},
			}
		}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			h := testHost(b)
			c, err := NewCtx(Grants{Dirs: []DirGrant{{Host: b.TempDir(), Guest: "/d"}}, Stdout: Output{W: io.Discard}})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			calls := tc.calls(h, c)
			fs := make([]hostFn, len(calls))
			for i, cl := range calls {
				if fs[i] = h.record[cl.name]; fs[i] == nil {
					b.Fatalf("no host function %s", cl.name)
				}
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				for i, f := range fs {
					if v, err := f(ctx, c, calls[i].args); err != nil {
						b.Fatal(err)
					} else if r, ok := v.(wit.ResultValue); ok && r.Err {
						b.Fatalf("%s: %v", calls[i].name, r)
					}
				}
			}
		})
	}
}

// zeroIn is an input stream of endless zeros.
type zeroIn struct{ alwaysReady }

func (zeroIn) read(p []byte) (int, error) { clear(p); return len(p), nil }
