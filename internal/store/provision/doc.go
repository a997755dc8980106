// Package provision installs what a capsule declares: every registry
// artifact of its murmur.yaml, fetched from the chosen registry with mur's
// built-in artifacts behind it, each verified, stored and pinned in
// murmur.lock through package install's pipeline. `mur install` and the
// public capsule.Install both call it, so the two install the same way;
// what they print is theirs.
package provision
