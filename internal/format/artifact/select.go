package artifact

import (
	"errors"
	"slices"
	"strings"
)

// CapsuleWasm is the root wasm name that wins over any other root wasm.
const CapsuleWasm = "capsule.wasm"

// ErrNoRootWasm is the payload-selection failure for an archive without a
// candidate, with Murmur's exact text.
var ErrNoRootWasm = errors.New("missing root .wasm file (expected capsule.wasm or one root *.wasm)")

const errManyWasm = "multiple root .wasm files found: "

// SelectRootWasm picks the payload among archive entry names, the rule
// shared by mur build and staging: capsule.wasm if present, else the only
// root *.wasm. Names in subdirectories, "./x.wasm" and unsafe names are not
// candidates.
func SelectRootWasm(names []string) (string, error) {
	var cands []string
	for _, n := range names {
		if !isRootWasmCandidate(n) {
			continue
		}
		if n == CapsuleWasm {
			return n, nil
		}
		cands = append(cands, n)
	}
	switch len(cands) {
	case 0:
		return "", ErrNoRootWasm
	case 1:
		return cands[0], nil
	}
	slices.Sort(cands)
	return "", errors.New(errManyWasm + strings.Join(cands, ", "))
}

// rootWasmNames lists the root wasm candidates among names, in order.
func rootWasmNames(names []string) []string {
	var out []string
	for _, n := range names {
		if isRootWasmCandidate(n) {
			out = append(out, n)
		}
	}
	return out
}
