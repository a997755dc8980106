// Package firstparty is mur's built-in registry: the first-party
// inference drivers openai-compatible and anthropic, the scripted test
// driver, and the first-party hooks compact and guard, built from guests/
// and embedded in the binary, so `mur install` gets them with no network
// and pins them in murmur.lock like any artifact. Each package is
// assembled in memory the same way every time (stored, not compressed,
// with a fixed timestamp), so a version's sha256 is the same on every
// machine.
package firstparty
