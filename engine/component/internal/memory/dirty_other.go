//go:build !linux

package memory

import "errors"

// Elsewhere than on Linux the engine finds no written pages: every reset
// copies the whole image (reset.go).
type dirtyPages struct{}

type pageRegion struct{ start, end, categories uint64 }

var errNoTracking = errors.New("dirty-page tracking unavailable on this OS")

func openDirtyPages() (*dirtyPages, error) { return nil, errNoTracking }

func (*dirtyPages) register([]byte) error                              { return errNoTracking }
func (*dirtyPages) protect([]byte) error                               { return errNoTracking }
func (*dirtyPages) unprotect([]byte) error                             { return errNoTracking }
func (*dirtyPages) reprotect([]byte) error                             { return errNoTracking }
func (*dirtyPages) written([]byte, []pageRegion) ([]pageRegion, error) { return nil, errNoTracking }
func (*dirtyPages) close()                                             {}
