package oci

import (
	"fmt"
	"net"
	"strings"

	"oras.land/oras-go/v2/registry"

	"github.com/mur-go/mur/internal/base/diag"
	reg "github.com/mur-go/mur/internal/store/registry"
)

// Scheme prefixes a registry URL that names an OCI registry.
const Scheme = "oci://"

// IsOCI reports whether url names an OCI registry.
func IsOCI(url string) bool { return strings.HasPrefix(strings.ToLower(url), Scheme) }

// Location is a parsed oci://HOST[:PORT]/PREFIX.
type Location struct {
	Host   string // host[:port]
	Prefix string // repository path prefix, may be empty
}

// ParseLocation parses an oci:// URL.
func ParseLocation(url string) (Location, error) {
	rest := url[len(Scheme):]
	host, prefix, _ := strings.Cut(strings.TrimRight(rest, "/"), "/")
	bad := func(why string) error {
		return &diag.Error{Code: reg.CodeIO, Err: reg.ErrInvalidInput,
			Msg:  fmt.Sprintf("invalid OCI registry URL '%s': %s", url, why),
			Hint: "use oci://HOST[:PORT]/PREFIX, e.g. oci://registry.example.com/murmur"}
	}
	if host == "" {
		return Location{}, bad("no host")
	}
	l := Location{Host: host, Prefix: prefix}
	if _, err := l.reference("x", "1.0.0"); err != nil {
		return Location{}, bad(err.Error())
	}
	return l, nil
}

// reference is PREFIX/<name>:<version> on the host.
func (l Location) reference(name, version string) (registry.Reference, error) {
	repo := name
	if l.Prefix != "" {
		repo = l.Prefix + "/" + name
	}
	r := registry.Reference{Registry: l.Host, Repository: repo, Reference: version}
	if err := r.Validate(); err != nil {
		return r, err
	}
	return r, nil
}

// Loopback reports whether the host is a loopback address, the only one
// plain HTTP is used for without --plain-http.
func (l Location) Loopback() bool {
	h := l.Host
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}
