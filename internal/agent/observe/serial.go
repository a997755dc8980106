package observe

import "sync"

// Serial is an Observer that hands o one event at a time: the loop and
// the session's async hooks, on goroutines of their own, share it, and
// each observer still sees the events in one order.
func Serial(o Observer) Observer {
	if o == nil {
		return nil
	}
	return &serial{o: o}
}

type serial struct {
	mu sync.Mutex
	o  Observer
}

func (s *serial) Observe(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.Observe(e)
}
