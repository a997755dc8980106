// Package traceview reads a session's trace.jsonl the way `mur trace`
// shows it (Murmur's `mur trace show|steps|diff|report`): which file a
// selector names in a workdir, the lenient decoder (unknown events
// skipped, a bad line named FILE:LINE), and the models the commands
// render: a session's summary, its steps, the diff of two sessions and
// the report over many. It formats numbers and durations as Murmur does;
// laying the models out on a terminal is the CLI's business.
//
// A trace is untrusted input: its session directory is the directory a
// guest writes in. The decoder holds no more than one line at a time,
// refuses a line past MaxLine, keeps bounded text per record, and every
// string it hands out is free of terminal control characters; files are
// opened without following a link planted in their place and only if
// regular.
package traceview
