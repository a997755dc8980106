//go:build wasip1

// Command capsule is the hello example's script capsule. It exports
// murmur:capsule/run@0.1.0 and drives tools through the host's
// murmur:tool-registry/invoke@0.1.0: the WASM tool word-count, the native
// tool greet, and then read-secrets, which murmur.yaml does not declare, so
// the host refuses it. It writes what happened to out/result.txt in its
// workdir (preopened as ".") and prints one progress line per step.
//
// examples/hello/build.sh compiles it as a wasip1 reactor and wraps it into
// examples/hello/capsule.wasm with the preview1 reactor adapter.
package main

import (
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/mur-go/mur/examples/hello/internal/cabi"
	abi "github.com/mur-go/mur/guests/go/cabi"
)

func main() {}

// Tool names; the first two are declared in murmur.yaml's artifacts.
const (
	wasmTool       = "word-count"
	nativeTool     = "greet"
	undeclaredTool = "read-secrets"
)

// sample is what word-count counts when the workdir has no task.md (mur run
// --task TEXT writes one).
const sample = "Murmur capsules are AI agents whose tools are WebAssembly components."

// invokeImport is murmur:tool-registry/invoke@0.1.0#invoke, lowered: the
// name string and the two option<string> fields of tool-input flatten to
// eight i32s; the result<tool-result, string> is written to ret.
//
//go:wasmimport murmur:tool-registry/invoke@0.1.0 invoke
func invokeImport(namePtr unsafe.Pointer, nameLen uint32,
	dataSome uint32, dataPtr unsafe.Pointer, dataLen uint32,
	logSome uint32, logPtr unsafe.Pointer, logLen uint32,
	ret unsafe.Pointer)

// invokeRet is result<tool-result, string> in memory: discriminant byte at
// 0 (0 ok, 1 err), payload at 4; an err string's pointer and length occupy
// the payload's first eight bytes.
type invokeRet struct {
	isErr uint8
	_     [3]byte
	ok    cabi.ToolResult
}

var _ = [1]struct{}{}[unsafe.Sizeof(invokeRet{})-56]

// outcome is one lifted invoke result.
type outcome struct {
	err      string // the host's err text; the rest is empty then
	refused  bool   // invoke returned err
	status   string
	summary  string
	data     string
	metadata [][2]string
}

// invoke calls tool name with data as its input (log-path none).
func invoke(name, data string) outcome {
	ret := new(invokeRet)
	invokeImport(unsafe.Pointer(unsafe.StringData(name)), uint32(len(name)),
		1, unsafe.Pointer(unsafe.StringData(data)), uint32(len(data)),
		0, nil, 0, unsafe.Pointer(ret))
	runtime.KeepAlive(name)
	runtime.KeepAlive(data)

	var o outcome
	if ret.isErr != 0 {
		e := (*[2]uint32)(unsafe.Pointer(&ret.ok))
		o = outcome{refused: true, err: cabi.String(e[0], e[1])}
	} else {
		r := &ret.ok
		o.status = cabi.StatusName(r.Status)
		o.summary, _ = r.Summary.Get()
		o.data, _ = r.Data.Get()
		o.metadata = r.MetadataPairs()
	}
	// Everything the host allocated for the result is copied now.
	abi.Unpin()
	return o
}

func say(line string) { os.Stdout.WriteString("hello: " + line + "\n") }

// run is murmur:capsule/run@0.1.0#run. A failed step still gets its result
// file; then the capsule exits with status 1 so the run reports failure.
//
//go:wasmexport murmur:capsule/run@0.1.0#run
func run() {
	root, err := os.OpenRoot(".")
	if err != nil {
		fail("cannot open the workdir: " + err.Error())
	}
	defer root.Close()

	text, source := sample, "built-in sample"
	if b, err := root.ReadFile("task.md"); err == nil && strings.TrimSpace(string(b)) != "" {
		text, source = string(b), "task.md"
	}
	// USER reaches the capsule only because murmur.yaml lists it in
	// capabilities.env.allow.
	name := os.Getenv("USER")
	if name == "" {
		name = "world"
	}

	var report strings.Builder
	report.WriteString("hello capsule report\n")
	if id := os.Getenv("MURMUR_SESSION_ID"); id != "" {
		report.WriteString("session: " + id + "\n")
	}
	var problems []string

	say("1/3 calling " + wasmTool + " (WASM tool) on the " + source)
	wc := invoke(wasmTool, text)
	sayOutcome(wc)
	section(&report, "1. "+wasmTool+" (WASM tool, input: "+source+")", wc)
	if wc.refused || wc.status != "passed" {
		problems = append(problems, wasmTool+" did not pass")
	}

	say("2/3 calling " + nativeTool + " (native tool) with \"" + name + "\"")
	gr := invoke(nativeTool, name)
	sayOutcome(gr)
	section(&report, "2. "+nativeTool+" (native tool, input: \""+name+"\")", gr)
	if gr.refused || gr.status != "passed" {
		problems = append(problems, nativeTool+" did not pass")
	}

	say("3/3 calling " + undeclaredTool + " (not declared in murmur.yaml)")
	rs := invoke(undeclaredTool, "please")
	sayOutcome(rs)
	section(&report, "3. "+undeclaredTool+" (not declared in murmur.yaml)", rs)
	if !rs.refused {
		problems = append(problems, undeclaredTool+" was not refused")
	}

	if len(problems) == 0 {
		report.WriteString("\nresult: ok: both declared tools ran; the undeclared one was refused\n")
	} else {
		report.WriteString("\nresult: failed: " + strings.Join(problems, "; ") + "\n")
	}
	if err := root.MkdirAll("out", 0o755); err != nil {
		fail("cannot create out/: " + err.Error())
	}
	if err := root.WriteFile("out/result.txt", []byte(report.String()), 0o644); err != nil {
		fail("cannot write out/result.txt: " + err.Error())
	}
	say("wrote out/result.txt")
	if len(problems) > 0 {
		fail(strings.Join(problems, "; "))
	}
}

func sayOutcome(o outcome) {
	if o.refused {
		say("    refused: " + o.err)
		return
	}
	say("    " + o.status + ": " + o.summary)
}

// section appends one tool call's outcome to the report.
func section(b *strings.Builder, title string, o outcome) {
	b.WriteString("\n" + title + "\n")
	if o.refused {
		b.WriteString("  refused: " + o.err + "\n")
		return
	}
	b.WriteString("  status:  " + o.status + "\n")
	b.WriteString("  summary: " + o.summary + "\n")
	if o.data != "" {
		b.WriteString("  data:    " + o.data + "\n")
	}
	for _, kv := range o.metadata {
		b.WriteString("  meta:    " + kv[0] + "=" + kv[1] + "\n")
	}
}

func fail(msg string) {
	os.Stderr.WriteString("hello: failed: " + msg + "\n")
	os.Exit(1)
}
