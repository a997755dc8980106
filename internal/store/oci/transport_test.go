package oci_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/testing/ociregistry"
)

// dialing returns a client that sends every connection to addr, so a
// registry on loopback can be reached under a name that is not loopback.
func dialing(addr string) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: tr}
}

// TestTransportSecurity: a registry that is not on loopback is spoken to
// over TLS unless --plain-http says otherwise, and a TLS failure is
// reported as one, naming the registry.
func TestTransportSecurity(t *testing.T) {
	plain := ociregistry.Start(t, false)
	t.Setenv("DOCKER_CONFIG", plain.DockerConfig(t))
	untrusted := httptest.NewTLSServer(http.NotFoundHandler())
	defer untrusted.Close()
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		addr      string
		plainHTTP bool
		want      string // "" = resolves (not found, from the registry itself)
	}{
		{"plain registry without --plain-http", plain.Host, false, "TLS with OCI registry registry.example.test failed"},
		{"plain registry with --plain-http", plain.Host, true, ""},
		{"untrusted certificate", untrusted.Listener.Addr().String(), false, "TLS with OCI registry registry.example.test failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg, err := oci.New("oci://registry.example.test/murmur", oci.Options{PlainHTTP: c.plainHTTP, HTTP: dialing(c.addr)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = reg.Resolve(ctx, "nothing", "1.0.0", nil)
			if c.want == "" {
				if code(err) != "E-REG-001" {
					t.Fatalf("resolve: %v, want E-REG-001 from the registry", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("resolve: %v, want %q", err, c.want)
			}
		})
	}
}
