package host

import (
	"context"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/remote/a2a"
)

// Send is murmur:message/send through the capsule's A2A client; without
// one the zero client's empty policy refuses the peer.
func (c *Capsule) Send(ctx context.Context, peer string, m a2a.Message) (a2a.TaskResult, error) {
	client := c.A2A
	if client == nil {
		client = &a2a.Client{}
	}
	return client.Send(ctx, peer, m)
}

func registerSend(l *component.Linker, t *witTypes, get func(*component.Store) *Capsule) error {
	return l.Define(InstanceMessage, "send", t.send,
		func(ctx context.Context, s *component.Store, peer string, m a2a.Message) (wit.ResultValue, error) {
			c := get(s)
			if c == nil {
				return wit.ResultValue{}, errNoCapsule
			}
			r, err := c.Send(ctx, peer, m)
			if err != nil {
				return errResult(err), nil
			}
			return wit.Ok(taskResultValue(r)), nil
		})
}
