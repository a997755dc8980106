// Package search is mur search below the CLI: where an artifact index
// comes from (the global store's metadata, an index file, an index URL),
// the artifacts-index.json document decoded as Murmur's serde types read
// it, and the query matched against each entry. The document is
// untrusted: it is read under a size cap, decoded strictly, and the CLI
// escapes every string of it before printing.
package search
