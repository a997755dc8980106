package provision

import (
	"log/slog"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/store/registry"
)

// Registry is what publish and install need of a registry.
type Registry interface {
	registry.Resolver
	registry.Publisher
}

// Open opens t: an oci:// URL is an OCI registry (credentials from the
// Docker config getenv locates), anything else as registry.Target.Open
// does. plainHTTP is accepted only for an OCI registry, where it allows
// HTTP to a registry that is not on loopback.
func Open(t registry.Target, plainHTTP bool, getenv func(string) string, log *slog.Logger) (Registry, error) {
	if t.Remote && oci.IsOCI(t.URL) {
		return oci.New(t.URL, oci.Options{PlainHTTP: plainHTTP, Getenv: getenv, Log: log})
	}
	if plainHTTP {
		return nil, &diag.Error{Code: registry.CodeIO, Err: registry.ErrInvalidInput,
			Msg:  "--plain-http applies only to an oci:// registry, and " + t.String() + " is not one",
			Hint: "drop --plain-http, or pass --registry oci://HOST[:PORT]/PREFIX"}
	}
	return t.Open(getenv, log)
}
