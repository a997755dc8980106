// Package murmurhost is the host side of Murmur's own WIT interfaces: what a
// script capsule, a tool or a driver may import besides WASI.
//
// Script capsules get murmur:tool-registry/invoke, murmur:artifact-manager/manage
// and murmur:message/send (RegisterCapsule). Tools and drivers get
// murmur:text/chunks and murmur:task/task (RegisterTool). Everything is
// registered under its exact versioned instance name (shared/spec/wit.md §2.2);
// per-store state is found through a getter, the way package wasip2 does it,
// so the embedder owns its store data.
//
// Tool calls are where guests meet each other, so this package also owns
// dispatch: a WASM tool gets a fresh store per call with its own grants and
// limits (WasmTool), a native tool runs as a subprocess speaking JSON on
// stdin/stdout with a scrubbed environment (NativeTool), and a skill returns
// its guidance text (SkillTool). Failures carry Murmur's exact wording
// (ToolError), because capsule authors match on those strings.
//
// Nothing here trusts the session's tools/ directory, which guests and
// native tools can write: skills and manifests are served from what staging
// verified, and a native binary runs only if it still has its staged
// sha256, from a sealed copy of the bytes that were hashed.
package murmurhost
