// Package install is the one path by which an artifact package gets from a
// registry to where it is used: `mur install` into a store, `mur run`
// staging into a session workdir, and manage.pull into a running session.
//
// The steps run in the order artifacts.md §9 gives, each in its own file,
// and every check runs before the first byte is written:
//
//  1. resolve: ask each Source in turn for name@version (a source that does
//     not have it is skipped);
//  2. verify: the bytes must hash to the digest the source recorded
//     (sidecar or x-murmur-sha256), before a byte of them is parsed;
//  3. lock check: murmur.lock must agree, either as a guard (an existing pin
//     must name the same version and bytes, E-REG-005) or frozen (every
//     artifact pinned, to this version and these bytes, as `mur run` needs);
//  4. extract: open the archive in memory, read and parse murmur.yaml and
//     the one payload entry the caller asks for, through the decompression
//     ceiling;
//  5. write: Store into a local store, or Place into tools/<name>/;
//  6. pin: Pin upserts the lock entry and replaces murmur.lock atomically.
//
// A Fetcher runs steps 1–4 (Fetch, or Resolve then Accept when a caller
// must look at every artifact before trusting any); nothing it does writes.
// Steps 5 and 6 are separate functions because each caller writes
// somewhere else, and only once everything it fetches has passed.
//
// Every failure is a coded error (*diag.Error: code, message, hint) marked
// with the step that failed. Callers branch on the Step and the sentinels
// with errors.Is, and may word the failure their own way.
package install
