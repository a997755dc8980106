// Package launch starts a staged capsule's guests, each under its own
// grants: a script capsule (a murmur.yaml without an inference block,
// whose own component exports murmur:capsule/run@0.1.0 and drives its
// allowlisted tools through the host), and for an agent capsule the
// driver and tools its loop calls (NewAgentTools, NewProcessTools).
//
// Staging (package stage) has already resolved, verified and compiled the
// declared artifacts and laid out the workdirs; launch reads what it
// needs of that through a stage.GuestView and turns it into a running
// sandbox. The capsule store gets its WASI grants from the manifest alone
// (the accessible workdir as ".", env.allow plus the runtime's MURMUR_*
// identity, wasi:http behind capabilities.network.allow,
// capabilities.limits) and the Murmur host interfaces of package host,
// wired to the runners of package tools. Every WASM preopen hides the
// runtime's own entries (tools/, trace.jsonl, .murmur/) and what it
// trusts at the next run (the manifest, .env, murmur.lock... where the
// workdir holds them), so no guest can touch what the runtime later
// executes or trusts. Native subprocesses start through mur's rlimit
// trampoline, in the session's resources.Bounds. Every failure comes back
// as a coded error (*diag.Error) carrying Murmur's wording and E-RUN
// code, because capsule authors and scripts match on those, marked with
// how the run ended (ErrCancelled, ErrTrapped).
package launch
