package manifest

import "github.com/mur-go/mur/internal/base/manifestio"

// MaxSize bounds every murmur.yaml mur reads (1 MiB): Load, Parse and the
// packaging commands all refuse a larger one with a *SizeError.
const MaxSize = manifestio.MaxSize

// SizeError is a manifest over MaxSize.
type SizeError = manifestio.SizeError
