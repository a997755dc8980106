// Package cluster is mur gateway: one A2A front door for every capsule
// that has workers on a NATS JetStream cluster. Each capsule is served at
// /NAME by the same front door mur run serves (serve/a2a.NewFront); its
// tasks are queued on JetStream and kept in its key-value bucket (package
// internal/cluster/queue) instead of the in-process registry, so any
// gateway answers for any task. RATIONALE.md says why it is built so.
package cluster
