// Package capsule embeds mur in a Go program: it runs a Murmur capsule,
// serves an agent capsule over A2A, or calls one WebAssembly component,
// with the same runtime, sandbox and checks as the mur command.
//
// # Running a capsule
//
// A capsule is a directory with a murmur.yaml. [Install] fetches the
// artifacts it declares (its tools, its model's driver) into the
// project's store and pins them in murmur.lock, as `mur install` does;
// [Run] then runs it once, as `mur run` does, and says how it ended:
//
//	if err := capsule.Install(ctx, capsule.InstallOptions{Manifest: "agent/murmur.yaml"}); err != nil {
//		return err
//	}
//	res, err := capsule.Run(ctx, capsule.Options{Manifest: "agent/murmur.yaml", Task: "count the words in notes.md"})
//	if err != nil {
//		return err // res.Status says failed, trapped or cancelled
//	}
//	fmt.Println(res.Text) // out/result.txt; res.SessionDir keeps trace.jsonl and logs/
//
// Each run gets a session directory of its own. Guests see only what the
// manifest grants, a native tool runs contained as far as the host
// allows (Options.Containment sets the floor a run insists on), and the
// run's secrets (the model's key, the A2A token) never reach a guest nor
// leave in the output, the log or an error.
//
// # Serving an agent
//
// An agent capsule (one with an inference: block) is served over A2A
// while it runs. [Serve] keeps it serving, one task after another, until
// its context ends; Options.OnURL learns where it listens, and any A2A
// client (such as github.com/a2aproject/a2a-go) can send it tasks.
//
// # Calling one component
//
// [Call] calls one exported function of a WebAssembly component with JSON
// arguments and returns its result as JSON, as `mur wasm call` does, under
// the WASI capabilities it is given and nothing else. For more (a long-lived
// instance, host functions of one's own, typed values), use the engine
// directly: packages engine/component, engine/wasip2 and engine/wit.
//
// # Errors
//
// A failure mur can name carries a Murmur code (E-MAN-003, E-CAP-003, …)
// and usually a hint: errors.As finds it as an [*Error].
//
// # The process
//
// Native tools start through the program itself: mur's sandbox takes over
// a process started as their trampoline before main runs, so a program
// that imports this package needs nothing more. The environment, the
// home and the compilation cache are the process's unless Options gives
// them. An agent capsule waiting for its next task hands idle memory back
// to the system, as `mur run` does: the engine's pooled memory, the free
// heap and, on Linux, the program's resident read-only pages.
package capsule
