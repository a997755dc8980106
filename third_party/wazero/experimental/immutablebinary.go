package experimental

import (
	"context"

	"github.com/tetratelabs/wazero/internal/expctxkeys"
)

// WithImmutableBinary (a mur patch) tells CompileModule that the binary
// it is given is never written to for as long as the compiled module
// lives (a read-only mapping of a file, or bytes no one else holds): the
// module then refers to its function bodies and data segments where they
// are in the binary instead of copying them. The caller vouches for it:
// a binary changed afterwards changes what instances of the module are
// initialised with.
func WithImmutableBinary(ctx context.Context) context.Context {
	return context.WithValue(ctx, expctxkeys.ImmutableBinary{}, true)
}
