package cli

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/store/provision"
	"github.com/mur-go/mur/internal/store/registry"
)

// openRegistry opens t for publish or install (see provision.Open).
func (a *app) openRegistry(t registry.Target, plainHTTP bool) (provision.Registry, error) {
	return provision.Open(t, plainHTTP, os.Getenv, a.log)
}

// checkPlainHTTP refuses --plain-http unless the registry chosen (by
// --registry or murmur.yaml) is an oci:// one: it would be ignored.
func checkPlainHTTP(cmd *cobra.Command, plainHTTP bool, reg string) error {
	if !plainHTTP {
		return nil
	}
	wd, err := cwd()
	if err != nil {
		return err
	}
	t, err := registry.Select(reg, wd)
	if err != nil {
		return err
	}
	if !t.Remote || !oci.IsOCI(t.URL) {
		return usagef(cmd, "--plain-http applies only to an oci:// registry, and the registry chosen (%s, by %s) is not one", t, t.Why)
	}
	return nil
}
