// Package queue is what the gateway and the workers of a mur cluster
// agree on over NATS JetStream: the names of the streams, subjects and
// key-value buckets, the job a task is queued as, the task's record in
// the key-value bucket and the events a worker publishes, how both sides
// connect (a URL's credentials kept out of logs and errors), and the
// streams' setup. RATIONALE.md in internal/serve/cluster says why.
package queue
