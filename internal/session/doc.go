// Package session runs one capsule session from its manifest to its
// outcome: load murmur.yaml, stage the declared artifacts, run the script
// capsule through package launch, and report how it ended. It is the one
// run pipeline: `mur run` calls it and renders the result, and the A2A
// server will call it per task. Flags, printing and exit codes are the
// caller's; so is the engine's lifetime when the caller shares one.
package session
