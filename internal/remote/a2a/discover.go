package a2a

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// How a client picks what to speak to a peer (every client here: the
// capsule's message/send, mur send, mur cancel, mur ps):
//
//  1. It fetches the agent card from the peer's origin
//     (/.well-known/agent-card.json), through the same checks as any
//     other request.
//  2. The card's interfaces it can use are the A2A 1.0 JSON-RPC and
//     HTTP+JSON ones and the 0.3 JSON-RPC ones whose URL is http(s) and,
//     for a capsule, admitted by its network policy. They are tried newest
//     version first, JSON-RPC before HTTP+JSON. A card that lists
//     interfaces, none of them usable, is an error.
//  3. Without a card (none served, or one that lists no interfaces, as
//     Murmur's own card), the peer URL is tried as 1.0 JSON-RPC, then 0.3.
//  4. A request moves on to the next interface only when the peer said it
//     did not take it: JSON-RPC "method not found" or "version not
//     supported", a plain 404/405/501, or (streaming) a stream that ended
//     before any event. That is how a 0.3-only server answers a 1.0
//     request, and none of them created a task, so nothing is sent twice.
//     When the card named no 0.3 interface, the peer URL stands in for it.
//     Any other answer, success or error, is final.

// endpoint is one interface to try.
type endpoint = sdk.AgentInterface

// discover resolves what to try at base, in order. admit (nil: anything)
// refuses an interface URL the policy does not admit.
func discover(ctx context.Context, hc *http.Client, base string, admit func(*url.URL) error) ([]*endpoint, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	fallbackEPs := []*endpoint{
		{URL: base, ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: sdk.Version},
		{URL: base, ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: a2av0.Version},
	}
	card, err := (&agentcard.Resolver{Client: hc, CardParser: a2av0.NewAgentCardParser()}).Resolve(ctx, origin)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return nil, err // the peer is unreachable (or refused): no point in going on
		}
		return fallbackEPs, nil
	}
	if len(card.SupportedInterfaces) == 0 {
		return fallbackEPs, nil
	}
	var eps, denied []*endpoint
	for _, e := range card.SupportedInterfaces {
		if e == nil || major(e.ProtocolVersion) == "" {
			continue
		}
		if e.ProtocolBinding != sdk.TransportProtocolJSONRPC && (e.ProtocolBinding != sdk.TransportProtocolHTTPJSON || major(e.ProtocolVersion) != "1") {
			continue
		}
		iu, err := url.Parse(e.URL)
		if err != nil || (iu.Scheme != "http" && iu.Scheme != "https") || iu.Host == "" {
			continue
		}
		if admit != nil && admit(iu) != nil {
			denied = append(denied, e)
			continue
		}
		eps = append(eps, e)
	}
	if len(eps) == 0 {
		if len(denied) > 0 {
			var urls []string
			for _, e := range denied {
				urls = append(urls, e.URL)
			}
			return nil, &PolicyError{URL: strings.Join(slices.Compact(urls), "', '")}
		}
		return nil, fmt.Errorf("the agent card at %s offers no A2A 1.0 or 0.3 interface over JSON-RPC or HTTP+JSON", origin)
	}
	slices.SortStableFunc(eps, func(a, b *endpoint) int {
		if c := cmp.Compare(major(b.ProtocolVersion), major(a.ProtocolVersion)); c != 0 {
			return c
		}
		return cmp.Compare(bindingRank(a.ProtocolBinding), bindingRank(b.ProtocolBinding))
	})
	if !slices.ContainsFunc(eps, func(e *endpoint) bool { return major(e.ProtocolVersion) == "0" }) {
		eps = append(eps, fallbackEPs[1])
	}
	return eps, nil
}

// major is "1" for a 1.x version, "0" for 0.x, "" for anything else.
func major(v sdk.ProtocolVersion) string {
	s := strings.TrimPrefix(string(v), "v")
	switch {
	case s == "1" || strings.HasPrefix(s, "1."):
		return "1"
	case strings.HasPrefix(s, "0."):
		return "0"
	}
	return ""
}

func bindingRank(b sdk.TransportProtocol) int {
	if b == sdk.TransportProtocolJSONRPC {
		return 0
	}
	return 1
}

// errNoEvents is a stream that ended before its first event: a peer that
// does not speak the version asked for may answer so.
var errNoEvents = errors.New("the agent's stream ended before any event")

// moveOn reports whether a failed request may be retried at the next
// endpoint: the peer said it did not take it (see the rule above).
func moveOn(err error) bool {
	var started *startedError
	if errors.As(err, &started) {
		return false
	}
	return errors.Is(err, sdk.ErrMethodNotFound) || errors.Is(err, sdk.ErrVersionNotSupported) ||
		errors.Is(err, errNotServed) || errors.Is(err, errNoEvents)
}

// clientFor is an SDK client speaking exactly e.
func clientFor(ctx context.Context, hc *http.Client, e *endpoint) (*a2aclient.Client, error) {
	return a2aclient.NewFromEndpoints(ctx, []*sdk.AgentInterface{e},
		a2aclient.WithJSONRPCTransport(hc), a2aclient.WithRESTTransport(hc),
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: hc}))
}

// withSDK runs call with an SDK client speaking exactly e.
func withSDK[T any](ctx context.Context, hc *http.Client, e *endpoint, call func(*a2aclient.Client) (T, error)) (T, error) {
	c, err := clientFor(ctx, hc, e)
	if err != nil {
		var zero T
		return zero, err
	}
	defer c.Destroy()
	return call(c)
}

// each runs call against the endpoints in order until one takes the
// request (moveOn), returning the endpoint that answered.
func each[T any](eps []*endpoint, call func(*endpoint) (T, error)) (T, *endpoint, error) {
	var zero T
	var last error
	var tried []string
	for _, e := range eps {
		v, err := call(e)
		if err == nil || !moveOn(err) {
			return v, e, err
		}
		last = err
		tried = append(tried, fmt.Sprintf("%s %s at %s", e.ProtocolBinding, e.ProtocolVersion, e.URL))
	}
	if last == nil {
		return zero, nil, errors.New("no A2A interface to try")
	}
	return zero, nil, fmt.Errorf("%w (tried %s)", last, strings.Join(tried, "; "))
}

// stateName is a task state as Murmur spells it: lower-case without
// TASK_STATE_, with dashes (input-required).
func stateName(s sdk.TaskState) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(s), "TASK_STATE_")), "_", "-")
}
