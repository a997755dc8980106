package oci

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/errcode"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/termtext"
	reg "github.com/mur-go/mur/internal/store/registry"
)

// failure names the registry and says which of authentication, TLS, a
// missing tag or the transport failed.
func (r *Registry) failure(what string, err error) error {
	var resp *errcode.ErrorResponse
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	switch {
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		// net/http's text for a tls.RecordHeaderError of an HTTP answer.
		return &diag.Error{Code: reg.CodeIO, Err: err,
			Msg:  fmt.Sprintf("TLS with OCI registry %s failed for %s: it answers in plain HTTP", r.loc.Host, what),
			Hint: "use the registry's TLS address, or pass --plain-http if plain HTTP to it is really meant (credentials then cross the network in clear)"}
	case errors.Is(err, auth.ErrBasicCredentialNotFound):
		return &diag.Error{Code: reg.CodeIO, Err: fmt.Errorf("%w: %w", reg.ErrAuth, err),
			Msg:  fmt.Sprintf("OCI registry %s refused authentication for %s: it requires credentials and none are configured for it", r.loc.Host, what),
			Hint: "log in with 'docker login " + r.loc.Host + "' (mur reads ~/.docker/config.json, or $DOCKER_CONFIG/config.json, and its credential helpers)"}
	case errors.As(err, &resp) && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden):
		return &diag.Error{Code: reg.CodeIO, Err: fmt.Errorf("%w: %w", reg.ErrAuth, err),
			Msg:  fmt.Sprintf("OCI registry %s refused authentication (HTTP %d) for %s", r.loc.Host, resp.StatusCode, what),
			Hint: "log in with 'docker login " + r.loc.Host + "' (mur reads ~/.docker/config.json, or $DOCKER_CONFIG/config.json, and its credential helpers)"}
	case errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalid), errors.As(err, &verify), errors.As(err, &record):
		return &diag.Error{Code: reg.CodeIO, Err: err,
			Msg:  fmt.Sprintf("TLS with OCI registry %s failed for %s: %s", r.loc.Host, what, termtext.Escape(err.Error(), true)),
			Hint: "the registry's certificate must be trusted by this machine; plain HTTP is used only for loopback registries or with --plain-http"}
	}
	return &diag.Error{Code: reg.CodeIO, Err: err,
		Msg:  fmt.Sprintf("OCI registry %s: %s failed: %s", r.loc.Host, what, termtext.Escape(err.Error(), true)),
		Hint: "check that the registry is running and reachable at " + r.loc.Host}
}

func notFound(err error) bool {
	var resp *errcode.ErrorResponse
	return errors.Is(err, errdef.ErrNotFound) || errors.As(err, &resp) && resp.StatusCode == http.StatusNotFound
}

// refused is a registry answer that breaks the package format: it is
// treated like bytes that fail their digest (E-REG-002). why may quote
// the registry (annotations, media types), and name and version may be
// a catalog's: all are escaped, so they cannot act on a terminal.
func (r *Registry) refused(name, version, why string) error {
	return &diag.Error{Code: reg.CodeIntegrity, Err: reg.ErrIntegrity,
		Msg: fmt.Sprintf("OCI registry %s served an invalid package for %s: %s", r.loc.Host,
			termtext.Escape(name+"@"+version, true), termtext.Escape(why, true)),
		Hint: "the tag does not point at a package 'mur publish' wrote, or it was modified; re-publish it under a new version"}
}
