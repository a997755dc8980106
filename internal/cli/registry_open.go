package cli

import (
	"os"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/store/registry"
)

// packageStore is what publish and install need of a registry.
type packageStore interface {
	registry.Resolver
	registry.Publisher
}

// openRegistry opens t: an oci:// URL is an OCI registry (credentials from
// the Docker config), anything else as registry.Target.Open does.
// --plain-http is accepted only for an OCI registry, where it allows HTTP
// to a registry that is not on loopback.
func (a *app) openRegistry(t registry.Target, plainHTTP bool) (packageStore, error) {
	if t.Remote && oci.IsOCI(t.URL) {
		return oci.New(t.URL, oci.Options{PlainHTTP: plainHTTP, Log: a.log})
	}
	if plainHTTP {
		return nil, &diag.Error{Code: registry.CodeIO, Err: registry.ErrInvalidInput,
			Msg:  "--plain-http applies only to an oci:// registry, and " + t.String() + " is not one",
			Hint: "drop --plain-http, or pass --registry oci://HOST[:PORT]/PREFIX"}
	}
	return t.Open(os.Getenv, a.log)
}
