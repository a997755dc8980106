package experimental

import (
	"context"

	"github.com/tetratelabs/wazero/internal/expctxkeys"
)

// WithModuleDigest (a mur patch) tells CompileModule the SHA-256 of the
// binary it is given, so the module's ID, the compilation cache's key,
// is derived from it instead of from hashing the binary again. The
// caller vouches for the digest: one that is not the binary's makes the
// cache hand back another module's code.
func WithModuleDigest(ctx context.Context, sha256 [32]byte) context.Context {
	return context.WithValue(ctx, expctxkeys.ModuleDigest{}, sha256)
}
