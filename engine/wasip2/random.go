package wasip2

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"

	"github.com/mur-go/mur/engine/wit"
)

// maxRandom caps one request for random bytes: the result is allocated on
// the host before the guest's memory limit can refuse it.
const maxRandom = 64 << 20

func randomLen(n uint64) (int, error) {
	if n > maxRandom {
		return 0, fmt.Errorf("wasi:random: %d bytes requested, at most %d per call", n, maxRandom)
	}
	return int(n), nil
}

func (h *host) registerRandom() {
	def1(h, "wasi:random/random", "get-random-bytes", fn(list(wit.U8), param("len", wit.U64)), func(ctx context.Context, c *Ctx, n uint64) ([]byte, error) {
		k, err := randomLen(n)
		if err != nil {
			return nil, err
		}
		b := make([]byte, k)
		rand.Read(b)
		return b, nil
	})
	def0(h, "wasi:random/random", "get-random-u64", fn(wit.U64), func(ctx context.Context, c *Ctx) (uint64, error) {
		return mrand.Uint64(), nil // math/rand/v2's global source is ChaCha8 seeded from the OS.
	})
	def1(h, "wasi:random/insecure", "get-insecure-random-bytes", fn(list(wit.U8), param("len", wit.U64)), func(ctx context.Context, c *Ctx, n uint64) ([]byte, error) {
		k, err := randomLen(n)
		if err != nil {
			return nil, err
		}
		b := make([]byte, k)
		for i := range b {
			b[i] = byte(mrand.Uint32())
		}
		return b, nil
	})
	def0(h, "wasi:random/insecure", "get-insecure-random-u64", fn(wit.U64), func(ctx context.Context, c *Ctx) (uint64, error) {
		return mrand.Uint64(), nil
	})
	def0(h, "wasi:random/insecure-seed", "insecure-seed", fn(tuple(wit.U64, wit.U64)), func(ctx context.Context, c *Ctx) ([2]uint64, error) {
		return c.seed, nil
	})
}
