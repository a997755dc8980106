package agent

// Notices are the two notices of the [Capsule] block, one per line: the
// only part of it a process-transport CLI is given (session.md §6).
const Notices = murmurMDNotice + "\n" + untrustedNotice
