// Package github is the GitHub release source of `mur install`: Murmur's
// bare names (the latest release of its default source,
// murmur-nexus/default-artifacts), `github:OWNER/REPO@TAG` refs (every
// package of one release) and `--all-platforms` (name@version for each
// platform Murmur ships). A release's JSON, its checksums and its assets
// are untrusted: each is read bounded, an asset is checked against the
// sha256 the release records for it before a byte of it is parsed, and
// what it returns goes through package install's checks again (digest,
// murmur.lock) before anything is written. The token goes only to the API
// base's origin (RATIONALE.md).
package github
