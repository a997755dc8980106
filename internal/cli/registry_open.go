package cli

import (
	"os"

	"github.com/mur-go/mur/internal/store/provision"
	"github.com/mur-go/mur/internal/store/registry"
)

// openRegistry opens t for publish or install (see provision.Open).
func (a *app) openRegistry(t registry.Target, plainHTTP bool) (provision.Registry, error) {
	return provision.Open(t, plainHTTP, os.Getenv, a.log)
}
