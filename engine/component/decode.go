package component

import "github.com/mur-go/mur/engine/component/internal/binary"

// CheckEncoding reports whether wasm is a well-formed component binary,
// without validating or compiling it: packaging refuses a damaged payload
// before it is published, and decoding is cheap because core modules stay
// undecoded bytes. The error names the byte offset and construct.
func CheckEncoding(wasm []byte) error {
	_, err := binary.DecodeComponent(wasm)
	return err
}
