// Package oci is a package source and sink backed by an OCI registry
// (oci://HOST[:PORT]/PREFIX): a package is the single layer of an OCI image
// manifest tagged PREFIX/<name>:<version>, native variants gathered in a
// per-platform index under the same tag. Everything read from the registry
// is untrusted: sizes are bounded, every digest is checked while reading,
// and the package sha256 must match the manifest's annotation before the
// bytes are returned; install then checks them against murmur.lock.
package oci
