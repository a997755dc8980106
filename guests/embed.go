package guests

import _ "embed"

// The built components the mur binary ships as its built-in drivers and
// hooks (package firstparty); everything else under out/ is for tests
// only.
var (
	//go:embed out/driver-openai-go.wasm
	DriverOpenAI []byte
	//go:embed out/driver-anthropic-go.wasm
	DriverAnthropic []byte
	//go:embed out/scripted-go.wasm
	Scripted []byte
	//go:embed out/compact-go.wasm
	Compact []byte
	//go:embed out/guard-go.wasm
	Guard []byte
)
