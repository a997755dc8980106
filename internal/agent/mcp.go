package agent

import "context"

// refreshTools brings the tool list up to date with the MCP servers'
// (a server may change its list at any time, notifications/tools/
// list_changed): the list, its JSON, its bootstrap.log form and the
// request's fixed tail are rebuilt when the catalog's version moved. It
// runs at each attempt's start and before each turn's request, so the
// model is always offered what the servers list now.
func (l *loop) refreshTools(ctx context.Context) error {
	if l.o.MCP == nil {
		return nil
	}
	listed, v := l.o.MCP.Listed(ctx)
	if l.hasListed && v == l.listed {
		return nil
	}
	inv, err := inventory(l.s, l.bound, listed)
	if err != nil {
		return failure(KindIO, err, "building the tool inventory: %v", err)
	}
	invJSON, err := encode(inv)
	if err != nil {
		return failure(KindIO, err, "encoding the tool inventory: %v", err)
	}
	invLog, err := inventoryLog(inv)
	if err != nil {
		return failure(KindIO, err, "encoding the tool inventory: %v", err)
	}
	l.inv, l.invJSON, l.invLog, l.reqTail = inv, invJSON, invLog, ""
	l.listed, l.hasListed = v, true
	return nil
}
