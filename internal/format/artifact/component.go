package artifact

import (
	"bytes"
	"fmt"
	"os"

	"github.com/mur-go/mur/engine/component"
)

// The eight-byte preambles: "\0asm", a version, a layer (0 core, 1
// component).
var (
	wasmMagic         = []byte("\x00asm")
	coreModuleHeader  = []byte("\x00asm\x01\x00\x00\x00")
	componentPreamble = []byte("\x00asm\x0d\x00\x01\x00")
)

// CheckComponent refuses a wasm payload that is not a WebAssembly
// component mur can load, naming the file and what it holds instead: a
// package of random bytes or a core module would otherwise be published
// and fail only when a capsule runs it. Decoding the component structure
// is cheap (core modules inside stay undecoded bytes).
func CheckComponent(file string, wasm []byte) error {
	bad := func(hint, format string, args ...any) error {
		return newError(CodeNoPayload, hint, nil, fmt.Sprintf("%s is not a WebAssembly component: ", file)+fmt.Sprintf(format, args...))
	}
	switch {
	case len(wasm) < len(componentPreamble) || !bytes.HasPrefix(wasm, wasmMagic):
		return bad("list the component's .wasm file in requires_files", "it does not start with the WebAssembly magic \\0asm (first bytes: % x)", wasm[:min(len(wasm), 8)])
	case bytes.HasPrefix(wasm, coreModuleHeader):
		return bad("wrap it with 'wasm-tools component new' (with a WASI adapter if it imports wasi_snapshot_preview1)",
			"it is a core module, not a component")
	case !bytes.HasPrefix(wasm, componentPreamble):
		return bad("rebuild it with a current toolchain (wasm-tools, jco, cargo component)",
			"unsupported WebAssembly version/layer % x (mur reads components with % x)", wasm[4:8], componentPreamble[4:8])
	}
	if err := component.CheckEncoding(wasm); err != nil {
		return newError(CodeNoPayload, "rebuild the component; 'wasm-tools validate' shows where it is damaged", err,
			fmt.Sprintf("%s is not a valid WebAssembly component: %v", file, err))
	}
	return nil
}

// checkPayload reads the planned file packed as archive name and checks it
// is a component.
func (p *plan) checkPayload(name string) error {
	for _, e := range p.entries {
		if e.archive != name {
			continue
		}
		wasm, err := os.ReadFile(e.path)
		if err != nil {
			return newError(CodeIO, "", err, fmt.Sprintf("failed to read %s: %v", e.path, err))
		}
		return CheckComponent(e.declared, wasm)
	}
	return nil
}
