package host

import (
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// A capsule whose host state has no A2A client must not reach any peer:
// the guest's send is refused by policy and nothing is dialled.
func TestSendWithoutClientDeniesEveryPeer(t *testing.T) {
	var conns atomic.Int32
	peer := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`{"jsonrpc":"2.0","id":"x","result":{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"}}}`))
	}))
	peer.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	peer.Start()
	t.Cleanup(peer.Close)

	got := env(t).probe(t, &Capsule{})("send", peer.URL, []any{"m", wit.None(), "hi"})
	want := wit.Err("network policy: '" + peer.URL + "' not in capabilities.network.allow")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("send = %#v, want %#v", got, want)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("the peer saw %d connections", n)
	}
}
