// Package registry stores and serves .mur.zip packages: the local directory
// registry (the global store ~/.murmur/artifacts and a project's
// .murmur/artifacts), the Nexus HTTP protocol as a client, and a Nexus
// server over a local store so a team can host one.
//
// Every registry hands back bytes together with the sha256 it recorded for
// them, and never vouches for the pair: callers verify with Resolved.Verify
// before they trust, store or extract anything.
package registry
