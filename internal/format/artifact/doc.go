// Package artifact is the .mur.zip package format: how mur build lays one out,
// how the root WebAssembly payload is chosen, and how archives are read
// safely. An archive is treated as hostile input: entries are fetched by exact
// name, every read stops at a decompression ceiling, and names that could
// escape a directory are never candidates for anything.
//
// The sha256 of a package is computed over the exact bytes of the archive, so
// the same bytes always verify the same way wherever they are stored.
package artifact
