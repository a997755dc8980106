package component

// WaitAbandoned waits until the goroutine of s's abandoned call, if any,
// has ended, and then the deferred Close, if one was arranged.
func WaitAbandoned(s *Store) {
	a := &s.abandon
	if a.stuck == nil {
		return
	}
	for range a.stuck {
	}
	if a.closed != nil {
		<-a.closed
	}
}
