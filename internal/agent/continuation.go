package agent

// continuation is a stateful driver's hold on the conversation
// (session.md §3.6): the id it returned, the context it was returned in,
// and how many messages it has seen. It lives for the whole run.
type continuation struct {
	id, contextID string
	acked         int
}

// record keeps a non-empty continuation_id with the messages sent, or
// clears the hold.
func (c *continuation) record(id, contextID string, sendLen int) {
	if id == "" {
		*c = continuation{}
		return
	}
	*c = continuation{id: id, contextID: contextID, acked: sendLen}
}

// tail is what to send with a hold active in contextID: the messages the
// driver has not seen and the id. ok is false without a hold in this
// context, or when the hold claims more messages than there are (then
// the whole conversation goes, without the id).
func (c *continuation) tail(msgs []any, contextID string) ([]any, string, bool) {
	if c.id == "" || c.contextID != contextID || c.acked > len(msgs) {
		return nil, "", false
	}
	return msgs[c.acked:], c.id, true
}
