//go:build !linux

package session

// releaseBinaryPages is Linux's: elsewhere the executable's pages stay.
func releaseBinaryPages() (uint64, error) { return 0, nil }
