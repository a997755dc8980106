// Package lockfile is murmur.lock: the project's record of which version and
// which exact bytes (sha256 of the whole .mur.zip) every registry artifact
// was installed at, so that later runs stage the same bytes or refuse.
//
// Who writes it: mur install (project installs, registry and source-chain
// hits), mur run when no lock exists yet, and a running capsule's
// manage.pull. mur build, mur publish and mur doctor never do; nor do global
// installs of a single ref or installs of a local .mur.zip file.
package lockfile
