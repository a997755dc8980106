package wasip2_test

import (
	"net"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// A rule names the host the guest's own URL parser reaches with the same
// text: both apply UTS #46, so a rule pasted with fullwidth letters, a
// fullwidth dot or an invisible soft hyphen admits example.test, and the
// guest reaches the listener. (A partial IDNA encoded such text as a
// punycode name nobody asked for, refusing the intended host and
// admitting a different one.)
func TestFetchRuleAndURLAgreeOnTheHost(t *testing.T) {
	srv, hits, _ := echoServer(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, host := range []string{
		"\uff45xample.test",                // fullwidth e
		"EXAMPLE\uff0etest",                // fullwidth full stop
		"ex\u00adample.test",               // soft hyphen, ignored by UTS #46
		"\uff25\uff38\uff21MPLE.\uff54est", // fullwidth capitals
	} {
		t.Run(host, func(t *testing.T) {
			dns := testguest.NewDNS(map[string][]string{"example.test": {"127.0.0.1"}})
			before := hits.Load()
			r := newEgressFetcher(t, dns, nil, host+":"+port).do(t, fetchReq{URL: "http://" + host + ":" + port + "/"})
			if r.status != "passed" || r.data != "GET" || hits.Load() != before+1 {
				t.Fatalf("rule %q did not admit the guest's request for the same text: %+v", host, r)
			}
		})
	}
}
