package mcp

import (
	"context"
	"log/slog"
	"testing"
)

// A server may announce a changed tool list before Connect has returned
// (the SDK runs the handler on the connection's goroutine): that is no
// read of a session not there yet, which crashed mur with a nil
// dereference in a full CI run; the first list after connect has the
// change.
func TestRefreshBeforeConnectReadsNothing(t *testing.T) {
	sv := &server{name: "early", log: slog.New(slog.DiscardHandler), parent: New(Config{})}
	sv.refresh()
	sv.settled(context.Background())
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if sv.refreshing != nil || sv.tools != nil {
		t.Errorf("a refresh ran before connect: refreshing %v, tools %v", sv.refreshing, sv.tools)
	}
}
