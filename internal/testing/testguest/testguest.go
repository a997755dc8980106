// Package testguest locates the prebuilt test guest components in
// guests/out for other packages' tests. guests/README.md describes each
// guest; the constants here name them and spell out the canned answers tests
// assert on, so those strings live in one Go place.
package testguest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Fixture names, as accepted by Path and Bytes.
const (
	// HookLifecycle exports murmur:hook/lifecycle@0.2.0 with the six required
	// functions, each a no-argument stub.
	HookLifecycle = "hook-lifecycle"
	// HookLifecycleTasks is HookLifecycle plus on-task-start and on-task-end.
	HookLifecycleTasks = "hook-lifecycle-tasks"
	// HookMissing lacks on-session-start.
	HookMissing = "hook-missing"
	// HookUnversioned exports only the unversioned murmur:hook/lifecycle.
	HookUnversioned = "hook-unversioned"
	// HookSpin's functions have the real on-session-start type and never
	// return.
	HookSpin = "hook-spin"

	// DriverCanned answers every run with status passed, data DriverCannedData.
	DriverCanned = "driver-canned"
	// DriverError answers every run with status error, data DriverErrorData.
	DriverError = "driver-error"
	// DriverMetadata answers every run with status passed, data
	// DriverMetadataData and metadata DriverMetadataPairs.
	DriverMetadata = "driver-metadata"
	// DriverSwitching answers DriverSwitchingBefore until the input data
	// contains DriverSwitchingMarker, then DriverSwitchingAfter.
	DriverSwitching = "driver-switching"
	// DriverTrap traps on every run.
	DriverTrap = "driver-trap"
	// DriverNoData answers status passed with every option none and empty
	// lists.
	DriverNoData = "driver-nodata"
	// ToolHostile answers a malformed tool-result chosen by its input's
	// first byte (see guests/README.md).
	ToolHostile = "tool-hostile"

	// ToolrunGo and ToolrunJS compute their answer from the input, identically
	// (see guests/README.md). ToolrunGo imports WASI 0.2 through the preview1
	// reactor adapter; ToolrunJS imports nothing.
	ToolrunGo = "toolrun-go"
	ToolrunJS = "toolrun-js"

	// FSAttackGo is the WASI filesystem boundary's hostile guest: raw
	// preview1 path calls on its first preopen, paths passed as spelled.
	FSAttackGo = "fsattack-go"

	// ScriptedGo is the scripted inference driver: it replays the turns in
	// MURMUR_INFERENCE_DRIVER_CONFIG and checks each request (see
	// guests/README.md).
	ScriptedGo = "scripted-go"

	// DriverRust is the driver built with rustc rather than Go: it exports
	// murmur:tool/run@0.1.0, imports murmur:text/chunks@0.1.0, calls the
	// request's first tool with the task and ends with what it answered
	// (see guests/README.md).
	DriverRust = "driver-rust"

	// DriverOpenAIGo and DriverAnthropicGo are the first-party drivers
	// (artifacts openai-compatible and anthropic); KeyspyGo is the
	// credential gateway's hostile tool, KeythiefGo its hostile driver (see
	// guests/README.md).
	DriverOpenAIGo    = "driver-openai-go"
	DriverAnthropicGo = "driver-anthropic-go"
	KeyspyGo          = "keyspy-go"
	KeythiefGo        = "keythief-go"
)

// Canned tool-result data of the driver doubles.
const (
	DriverCannedData      = `{"stop_reason":"end_turn","content":[{"type":"text","text":"compacted summary"}]}`
	DriverErrorData       = `{"stop_reason":"error","error":"unknown model: nope"}`
	DriverMetadataData    = `{"stop_reason":"end_turn","content":[{"type":"text","text":"continued reply"}]}`
	DriverSwitchingMarker = "SWITCH-MARKER"
	DriverSwitchingBefore = `{"stop_reason":"end_turn","content":[{"type":"text","text":"before marker"}]}`
	DriverSwitchingAfter  = `{"stop_reason":"end_turn","content":[{"type":"text","text":"after marker"}]}`
)

// DriverMetadataPairs is DriverMetadata's metadata, in order.
var DriverMetadataPairs = [][2]string{{"continuation_id", "cont-42"}, {"state_effect", "read"}}

// Path is the absolute path of guests/out/<name>.wasm, found from this
// source file so it works from any package's test directory.
func Path(name string) string {
	return filepath.Join(ModuleRoot(), "guests", "out", name+".wasm")
}

// ModuleRoot is the repository root: the nearest directory above this
// source file that holds go.mod, so tests find it from any package
// however deep.
func ModuleRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testguest: cannot locate its own source file")
	}
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			panic("testguest: no go.mod above " + file)
		}
	}
}

// Bytes reads the named fixture, failing tb if it is missing.
func Bytes(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(Path(name))
	if err != nil {
		tb.Fatalf("test guest %s: %v (run guests/build.sh)", name, err)
	}
	return b
}
