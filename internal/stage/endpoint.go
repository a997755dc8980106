package stage

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// httpImport is the interface a component makes HTTP requests through.
const httpImport = "wasi:http/outgoing-handler"

// checkEndpoint refuses, before anything is written, an agent capsule
// whose driver makes HTTP requests but may not make them to
// inference.endpoint: every model call would be denied
// (HTTP-request-denied) only once the session runs. The driver's network
// grant is the one its store gets, the ceiling narrowed by the
// artifact's own block; a driver that imports no HTTP interface (a
// scripted one) reaches no endpoint and is let be.
func checkEndpoint(c *manifest.Capsule, file string, arts []*staged) error {
	inf := c.Inference
	if inf == nil || inf.Transport != "http" || inf.Driver == nil {
		return nil
	}
	var drv *staged
	for _, a := range arts {
		if a.Role == RoleDriver && a.Name == inf.Driver.Artifact {
			drv = a
		}
	}
	if drv == nil || drv.Kind != KindWasm {
		return nil
	}
	u, err := url.Parse(inf.Endpoint)
	if err != nil || u.Hostname() == "" {
		return nil // manifest validation reports a malformed endpoint
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname())
	port := uint16(443)
	if scheme == "http" {
		port = 80
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return nil
		}
		port = uint16(n)
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if drv.Grants.Network.AllowRequest(scheme, host, port) || !importsHTTP(drv.Component) {
		return nil
	}
	rule := scheme + "://" + host
	if u.Port() != "" {
		rule += ":" + u.Port()
	}
	where, path := "capabilities.network.allow", "capabilities.network.allow"
	if !drv.Grants.InheritsNetwork {
		path = fmt.Sprintf("artifacts[%d].capabilities.network.allow", indexOf(c, drv.Ref))
		where = path + " (the driver's own block narrows the capsule's)"
	}
	return diag.New(CodeNetRule, "inference.endpoint %s is not in %s: driver '%s' could not reach its model", inf.Endpoint, where, drv.Name).
		WithHint(fmt.Sprintf("add `- %s` to %s in murmur.yaml", rule, path)).
		At(manifest.At(file, path, 0, 0))
}

// importsHTTP reports whether the compiled component c can make HTTP
// requests.
func importsHTTP(c *component.Component) bool {
	if c == nil {
		return false
	}
	for _, imp := range c.World().Imports {
		if strings.HasPrefix(imp.Name, httpImport) {
			return true
		}
	}
	return false
}
