// Package worker is mur worker: it takes one capsule's tasks from the
// cluster's work queue and runs each in its own session (session.Run, as
// mur run and mur eval run do: staging, the agent loop, tools, hooks,
// trace and containment unchanged), publishing the task's status,
// answer and stream events back through the session's redactor. One
// capsule per worker: the capsule is its unit of install, staging,
// grants and containment, and a host serves several by running several
// workers (internal/serve/cluster/RATIONALE.md).
package worker
