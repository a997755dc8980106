// Package host is the host side of Murmur's own WIT interfaces: what a
// script capsule, a tool or a driver may import besides WASI.
//
// Script capsules get murmur:tool-registry/invoke, murmur:artifact-manager/manage
// and murmur:message/send (RegisterCapsule). Tools and drivers get
// murmur:text/chunks and murmur:task/task (RegisterTool). Everything is
// registered under its exact versioned instance name (shared/spec/wit.md §2.2);
// per-store state is found through a getter, the way package wasip2 does it,
// so the embedder owns its store data.
//
// This package only binds: invoke hands the call to a runner of package
// tools after the allowlist check, send to an a2a.Client, and manage reads
// the inventory staging verified, never the session's tools/ directory,
// which guests and native tools can write.
package host
