package tools

import (
	"crypto/sha256"
	"encoding/json"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
)

// preinitFor is how a tool's stores start from a snapshot of the
// component's initialisation (component.Preinit): keyed by every WASI
// input initialisation can read, and admitting only the WASI calls that
// read them or read a clock or randomness. Anything else initialisation
// calls (a write to stdout, a file opened, an HTTP request, a chunk
// emitted) has an effect a snapshot would not repeat, so the engine then
// instantiates the normal way.
func preinitFor(g wasip2.Grants) *component.Preinit {
	// The key is a hash, not the values: the environment holds secrets
	// (a raw API key), which need not stay in the engine's map as text.
	b, _ := json.Marshal(struct {
		Dirs []wasip2.DirGrant
		Env  [][2]string
		Args []string
		Cwd  string
	}{g.Dirs, g.Env, g.Args, g.Cwd})
	sum := sha256.Sum256(b)
	return &component.Preinit{Key: string(sum[:]), Allow: initReadable}
}

// initReads are the WASI functions initialisation may call and still be
// snapshotted. Environment, arguments, cwd and the preopens (and that
// each is a directory) are fixed by the key; the preopens' descriptors
// and the stdio streams are handles the engine asks for again in each
// restored store, so each gets its own; terminals are none under mur;
// clocks and randomness are baked in, as engine/component/RATIONALE.md explains.
// Go's runtime asks for all of these at start-up, through the preview1
// adapter.
var initReads = map[string]map[string]bool{
	"wasi:cli/environment":        {"get-environment": true, "get-arguments": true, "initial-cwd": true},
	"wasi:filesystem/preopens":    {"get-directories": true},
	"wasi:filesystem/types":       {"[method]descriptor.get-type": true},
	"wasi:cli/stdin":              {"get-stdin": true},
	"wasi:cli/stdout":             {"get-stdout": true},
	"wasi:cli/stderr":             {"get-stderr": true},
	"wasi:cli/terminal-stdin":     {"get-terminal-stdin": true},
	"wasi:cli/terminal-stdout":    {"get-terminal-stdout": true},
	"wasi:cli/terminal-stderr":    {"get-terminal-stderr": true},
	"wasi:clocks/monotonic-clock": {"now": true, "resolution": true},
	"wasi:clocks/wall-clock":      {"now": true, "resolution": true},
	"wasi:random/random":          {"get-random-bytes": true, "get-random-u64": true},
	"wasi:random/insecure":        {"get-insecure-random-bytes": true, "get-insecure-random-u64": true},
	"wasi:random/insecure-seed":   {"insecure-seed": true},
}

func initReadable(instance, name string) bool { return initReads[instance][name] }
