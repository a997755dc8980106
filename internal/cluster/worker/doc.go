// Package worker is mur worker: it takes one capsule's tasks from the
// cluster's work queue and runs them in sessions it staged once
// (session.Run, as mur run does: staging, the agent loop, tools, hooks,
// trace and containment unchanged; task after task in a session when the
// capsule's lifecycle is queue+sleep, as mur run's queue does, else one
// task per session), publishing the task's status, question, answer and
// stream events back through the session's redactor. One
// capsule per worker: the capsule is its unit of install, staging,
// grants and containment, and a host serves several by running several
// workers (internal/serve/cluster/RATIONALE.md).
package worker
