// Package eval is `mur eval`: the eval.jsonl records a scored session
// leaves (event_score and dataset_run lines), read and summarised for
// `mur eval show` and compared for `mur eval diff`; and `mur eval run`,
// which runs a capsule once per case of a dataset, each case a fresh
// session through package session (the pipeline `mur run` uses), and
// scores it with the manifest's observability.eval scorers.
//
// Murmur scores a session in its murmur-hook-eval hook; mur-go scores it
// in the runtime, from what the session's agent loop reported as it ran
// (an observe.Observer), so nothing a guest writes to the session
// directory can change a case's score. The records are then written to
// the session's eval.jsonl in Murmur's form, replacing whatever is there.
//
// Everything read back (eval.jsonl, datasets) is untrusted: bounded in
// size, decoded line by line with every failure at FILE:LINE, never read
// from a FIFO; an eval file never through a link planted in its place.
package eval
