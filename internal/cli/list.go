package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/termtext"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/store/registry"
)

const listLong = `List the artifacts installed in the project store (.murmur/artifacts
beside the nearest murmur.yaml), or in the global store (~/.murmur/artifacts)
with -g or when not inside a project. --all lists both, with a SCOPE column.

RUNTIME is the artifact's role (tool, driver, hook, skill); PLATFORMS is
set for native variants.

--registry oci://HOST[:PORT]/PREFIX lists the packages 'mur publish'
pushed to that OCI registry instead (scope "registry" in --json), read from its
catalog as 'mur search --registry oci://…' reads it: the registry must
list its catalog (GHCR, ECR and Docker Hub do not), credentials come
from the Docker config, and a tag that is not a package is skipped with
a warning. Every cell is printed with control and bidirectional
characters escaped.`

const listExample = `  mur list
  mur list -g
  mur list --all --json
  mur list --registry oci://registry.example.com/murmur`

// listRow is one artifact version in one store.
type listRow struct {
	Scope     string   `json:"scope"`
	Name      string   `json:"name"`
	Version   string   `json:"version"`
	Runtime   string   `json:"runtime"`
	Packaging string   `json:"packaging"`
	Platforms []string `json:"platforms"`
}

func newListCommand(a *app) *cobra.Command {
	var global, all, asJSON, plainHTTP bool
	var reg string
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List installed artifacts",
		Long:    listLong,
		Example: listExample,
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if global && all {
				return usagef(cmd, "-g and --all cannot be used together (--all already includes the global store)")
			}
			if reg != "" {
				switch {
				case !oci.IsOCI(reg):
					return usagef(cmd, "--registry '%s' is not an oci:// registry: mur list reads only those (installed artifacts are listed without --registry)", termtext.Escape(reg, true))
				case global || all:
					return usagef(cmd, "--registry lists a registry, not the stores: it cannot be used with -g or --all")
				}
				return a.listRegistry(cmd.Context(), reg, plainHTTP, asJSON)
			}
			if plainHTTP {
				return usagef(cmd, "--plain-http applies only to --registry oci://…")
			}
			return a.list(cmd.Context(), global, all, asJSON)
		},
	}
	cmd.Flags().BoolVarP(&global, "global", "g", false, "list the global store")
	cmd.Flags().BoolVar(&all, "all", false, "list the project and the global store")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of a table")
	cmd.Flags().StringVar(&reg, "registry", "", "list the packages of the OCI registry `oci://HOST[:PORT]/PREFIX`")
	cmd.Flags().BoolVar(&plainHTTP, "plain-http", false, "allow plain HTTP to a non-loopback oci:// registry")
	return cmd
}

// listStore is one store to list.
type listStore struct{ scope, root string }

func (a *app) list(ctx context.Context, global, all, asJSON bool) error {
	stores, err := listStores(global, all)
	if err != nil {
		return err
	}
	rows := []listRow{}
	for _, s := range stores {
		metas, err := registry.NewLocal(s.root, a.log).List(ctx)
		if err != nil {
			return err
		}
		for _, m := range metas {
			rows = append(rows, newListRow(s.scope, m))
		}
	}
	var builtins []listRow
	if slices.ContainsFunc(stores, func(s listStore) bool { return s.scope == "global" }) {
		if builtins, err = builtinRows(ctx); err != nil {
			return err
		}
		builtins = withoutListed(builtins, rows)
	}
	if asJSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(append(rows, builtins...))
	}
	if len(rows) == 0 {
		fmt.Fprintln(a.stdout, "No artifacts found.")
		var where []string
		for _, s := range stores {
			where = append(where, s.root)
		}
		fmt.Fprintf(a.stdout, "  looked in %s\n  add some with 'mur install <name>@<version>' (or 'mur publish' to the global store)\n", strings.Join(where, " and "))
		if len(builtins) > 0 {
			return printBuiltins(a.stdout, builtins)
		}
		return nil
	}
	if err := writeListTable(a.stdout, rows, all); err != nil {
		return err
	}
	if len(builtins) > 0 {
		return printBuiltins(a.stdout, builtins)
	}
	return nil
}

// listStores picks the stores: the project's unless -g or outside a
// project; both with --all (project first).
func listStores(global, all bool) ([]listStore, error) {
	g, err := registry.GlobalRoot(os.Getenv)
	if err != nil {
		return nil, err
	}
	globalStore := listStore{"global", g}
	if global {
		return []listStore{globalStore}, nil
	}
	wd, err := cwd()
	if err != nil {
		return nil, err
	}
	root, err := projectRoot(wd)
	if err != nil {
		return []listStore{globalStore}, nil
	}
	project := listStore{"project", registry.ProjectRoot(root)}
	if all {
		return []listStore{project, globalStore}, nil
	}
	return []listStore{project}, nil
}

func newListRow(scope string, m artifact.Meta) listRow {
	r := listRow{Scope: scope, Name: m.Name, Version: m.Version, Runtime: m.ArtifactRuntime, Packaging: string(m.Runtime), Platforms: []string{}}
	for _, p := range m.Platforms {
		r.Platforms = append(r.Platforms, p.String())
	}
	return r
}

// writeListTable writes rows as NAME VERSION RUNTIME PLATFORMS, after
// SCOPE when scope is set, every cell escaped.
func writeListTable(w io.Writer, rows []listRow, scope bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if scope {
		fmt.Fprint(tw, "SCOPE\t")
	}
	fmt.Fprintln(tw, "NAME\tVERSION\tRUNTIME\tPLATFORMS")
	for _, r := range rows {
		if scope {
			fmt.Fprintf(tw, "%s\t", r.Scope)
		}
		r = escapedRow(r)
		plats := "—"
		if len(r.Platforms) > 0 {
			plats = strings.Join(r.Platforms, ", ")
		}
		runtime := r.Runtime
		if runtime == "" {
			runtime = "—"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Version, runtime, plats)
	}
	return tw.Flush()
}
