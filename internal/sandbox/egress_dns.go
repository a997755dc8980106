package sandbox

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// dnsTTL is the TTL of every answer (§3.4).
const dnsTTL = 60

// serveDNS answers the namespace's UDP 53 until pc is closed.
func (e *Egress) serveDNS(ctx context.Context, pc net.PacketConn) {
	buf := make([]byte, 1500)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp := e.answer(ctx, buf[:n]); resp != nil {
			pc.WriteTo(resp, from)
		}
	}
}

// answer is one DNS response: A records (TTL 60) for an allowed name,
// no records for its other types, REFUSED for any other name; nil for a
// packet that is not a query.
func (e *Egress) answer(ctx context.Context, q []byte) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(q)
	if err != nil || h.Response {
		return nil
	}
	question, err := p.Question()
	if err != nil {
		return nil
	}
	name := strings.TrimSuffix(strings.ToLower(question.Name.String()), ".")
	rh := dnsmessage.Header{ID: h.ID, Response: true, OpCode: h.OpCode, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	var ips []netip.Addr
	_, literal := netip.ParseAddr(name)
	switch {
	case literal == nil || !e.allowedName(name):
		rh.RCode = dnsmessage.RCodeRefused
		e.log().Info("subprocess DNS query refused: not in capabilities.network.allow", "name", name)
	case question.Type == dnsmessage.TypeA:
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		addrs, err := e.resolver().LookupIPAddr(lctx, name)
		cancel()
		if err != nil {
			rh.RCode = dnsmessage.RCodeServerFailure
			break
		}
		ips = addrs4(addrs)
		e.bind(name, ips)
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if b.StartQuestions() != nil || b.Question(question) != nil || b.StartAnswers() != nil {
		return nil
	}
	for _, ip := range ips {
		rr := dnsmessage.ResourceHeader{Name: question.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET, TTL: dnsTTL}
		if b.AResource(rr, dnsmessage.AResource{A: ip.As4()}) != nil {
			return nil
		}
	}
	out, err := b.Finish()
	if err != nil {
		return nil
	}
	return out
}
