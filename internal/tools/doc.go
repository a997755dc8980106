// Package tools runs Murmur tools: the Tool interface, its input, result
// and errors, and one runner per kind. Tool calls are where guests meet
// each other, so isolation is decided here: a WASM tool gets a fresh store
// per call with its own grants and limits (WasmTool), a native tool runs as
// a subprocess speaking JSON on stdin/stdout with a scrubbed environment
// (NativeTool, SubprocessEnv), and a skill returns its guidance text
// (SkillTool). Failures carry Murmur's exact wording (ToolError), because
// capsule authors match on those strings.
//
// It also keeps what a session can call and list (ToolSet,
// StagedInventory) and installs artifacts while a capsule runs
// (RegistryPuller).
//
// Nothing here trusts the session's tools/ directory, which guests and
// native tools can write: skills and manifests are served from what staging
// verified, and a native binary runs only if it still has its staged
// sha256, from a sealed copy of the bytes that were hashed.
package tools
