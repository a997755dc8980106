package oci

import (
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
	"oras.land/oras-go/v2/registry/remote/retry"

	"github.com/mur-go/mur/internal/base/diag"
	reg "github.com/mur-go/mur/internal/store/registry"
)

// Registry publishes to and resolves from one oci:// location.
type Registry struct {
	loc    Location
	plain  bool
	auth   *auth.Client
	log    *slog.Logger
	limits catalogLimits
}

var (
	_ reg.Resolver  = (*Registry)(nil)
	_ reg.Publisher = (*Registry)(nil)
)

// Options configure New.
type Options struct {
	// PlainHTTP allows HTTP to a non-loopback registry.
	PlainHTTP bool
	// Getenv locates the Docker config (DOCKER_CONFIG, else
	// HOME/.docker); nil is os.Getenv.
	Getenv func(string) string
	// HTTP is the transport; nil means one with a 5 minute total timeout.
	HTTP *http.Client
	Log  *slog.Logger
}

// New opens url (oci://HOST[:PORT]/PREFIX). Credentials come from the
// Docker config ($DOCKER_CONFIG/config.json, else ~/.docker/config.json)
// and the credential helpers it names; they are only ever sent to the
// registry they are configured for and never stored by mur.
func New(url string, o Options) (*Registry, error) {
	loc, err := ParseLocation(url)
	if err != nil {
		return nil, err
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var store credentials.Store = credentials.NewMemoryStore()
	if path := dockerConfig(getenv); path != "" {
		store, err = credentials.NewStore(path, credentials.StoreOptions{})
	}
	if err != nil {
		return nil, &diag.Error{Code: reg.CodeIO, Err: err,
			Msg:  "cannot read the Docker credential configuration: " + err.Error(),
			Hint: "fix ~/.docker/config.json (or $DOCKER_CONFIG/config.json)"}
	}
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 5 * time.Minute, Transport: retry.NewTransport(http.DefaultTransport)}
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Registry{
		loc:    loc,
		plain:  o.PlainHTTP || loc.Loopback(),
		auth:   &auth.Client{Client: hc, Cache: auth.NewCache(), Credential: credentials.Credential(store)},
		log:    log,
		limits: defaultCatalogLimits(),
	}, nil
}

// dockerConfig is where docker reads its configuration; "" when neither
// DOCKER_CONFIG nor HOME is set (then there are no credentials).
func dockerConfig(getenv func(string) string) string {
	if d := getenv("DOCKER_CONFIG"); d != "" {
		return filepath.Join(d, "config.json")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".docker", "config.json")
	}
	return ""
}

// repository is the remote repository of one package.
func (r *Registry) repository(name, version string) (*remote.Repository, string, error) {
	ref, err := r.loc.reference(name, version)
	if err != nil {
		return nil, "", &diag.Error{Code: reg.CodeIO, Err: reg.ErrInvalidInput,
			Msg:  "cannot name " + name + "@" + version + " in an OCI registry: " + err.Error(),
			Hint: "OCI repository names are lower case; tags are [A-Za-z0-9_.-], at most 128 characters"}
	}
	return &remote.Repository{Client: r.auth, Reference: ref, PlainHTTP: r.plain}, ref.String(), nil
}
