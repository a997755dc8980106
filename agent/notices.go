package agent

import "github.com/mur-go/mur/stage"

// Notices are the two notices of the [Capsule] block, one per line: the
// only part of it a process-transport CLI is given (session.md §6).
const Notices = murmurMDNotice + "\n" + untrustedNotice

// ResolvePrompt is the manifest's resolved system prompt (session.md §3.3,
// "" when none), for a transport that builds its own system text.
func ResolvePrompt(s *stage.Session) (string, error) { return resolvePrompt(s) }
