//go:build !linux

package sandbox

import "errors"

// seccompProgram has no filter to assemble: seccomp is Linux's.
func seccompProgram(bool) ([]byte, error) {
	return nil, errors.New("seccomp is a Linux mechanism")
}
