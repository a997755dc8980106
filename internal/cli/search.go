package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/termtext"
	"github.com/mur-go/mur/internal/store/search"
)

const searchLong = `Search an artifact index for artifacts whose name, description or tags
contain QUERY (case-insensitive), and print them as a table, in index
order, or "No results found.".

--registry chooses the index:
  (none)          Murmur's public index
                  (` + search.DefaultIndexURL + `)
  local           the artifacts in the global store (~/.murmur/artifacts)
  /abs/path.json  an artifacts-index.json file
  http(s)://…     an artifacts-index.json fetched from that URL
  oci://HOST[:PORT]/PREFIX
                  the packages 'mur publish' pushed to that OCI registry,
                  read from its catalog (/v2/_catalog), which the registry
                  must offer (GHCR, ECR and Docker Hub do not)

An index is a JSON document {"schema_version": "1", "updated_at": …,
"artifacts": [{"name", "version", "runtime", "description", "tags",
"platforms"}]}; any other schema version is refused. An index larger than
16 MiB is refused, and every string of it is printed with control and
bidirectional characters escaped.

An OCI registry is searched through its catalog, each package
repository's tags and each tag's manifest annotations (name, version,
role, description), with the checks 'mur install' makes; package blobs
are not downloaded. Credentials come from the Docker config, as for
publish and install; plain HTTP is used only for a loopback registry or
with --plain-http. A tag that is not a package is skipped with a warning.
More than ` + maxRepos + ` package repositories or ` + maxTags + ` tags under the prefix are
refused as too large to search.`

const (
	maxRepos = "500"  // oci.MaxCatalogRepositories; TestSearchHelpCaps checks it
	maxTags  = "2000" // oci.MaxCatalogTags
)

const searchExample = `  mur search git
  mur search editor --registry local
  mur search git --registry https://my-org.example.com/artifacts-index.json
  mur search murmur --limit 3
  mur search git --registry oci://registry.example.com/murmur`

func newSearchCommand(a *app) *cobra.Command {
	var reg string
	var limit int
	var plainHTTP bool
	cmd := &cobra.Command{
		Use:     "search QUERY",
		Short:   "Search an artifact index by name, description or tag",
		Long:    searchLong,
		Example: searchExample,
		Args:    exactArgs("QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 1 {
				return usagef(cmd, "--limit must be at least 1, got %d", limit)
			}
			src, err := search.ParseSource(reg)
			if errors.Is(err, search.ErrBadSource) {
				return &usageError{cmd, err}
			}
			if plainHTTP && src.Kind != search.OCI {
				return usagef(cmd, "--plain-http applies only to an oci:// registry")
			}
			var entries []search.Entry
			if src.Kind == search.OCI {
				entries, err = a.ociEntries(cmd.Context(), src.Where, plainHTTP)
			} else {
				entries, err = search.Load(cmd.Context(), src, os.Getenv)
			}
			if err != nil {
				return err
			}
			return printSearch(a.stdout, search.Match(entries, args[0], limit))
		},
	}
	cmd.Flags().StringVar(&reg, "registry", "", "`INDEX` to search: local, an absolute index file path, an index URL, or oci://HOST[:PORT]/PREFIX")
	cmd.Flags().BoolVar(&plainHTTP, "plain-http", false, "allow plain HTTP to a non-loopback oci:// registry")
	cmd.Flags().IntVar(&limit, "limit", 10, "show at most `N` results")
	return cmd
}

// printSearch writes Murmur's table: NAME, VERSION and RUNTIME padded to
// their widest cell, DESCRIPTION last (an em dash when there is none).
// Every cell is escaped first, so the index chooses nothing but text.
func printSearch(w io.Writer, found []search.Entry) error {
	if len(found) == 0 {
		_, err := fmt.Fprintln(w, "No results found.")
		return err
	}
	rows := [][4]string{{"NAME", "VERSION", "RUNTIME", "DESCRIPTION"}}
	for _, e := range found {
		desc := "—"
		if e.Description != nil {
			desc = *e.Description
		}
		rows = append(rows, [4]string{e.Name, e.Version, e.Runtime, desc})
	}
	var width [3]int
	for i := range rows {
		for c := range rows[i] {
			rows[i][c] = termtext.Escape(rows[i][c], true)
			if c < 3 {
				width[c] = max(width[c], utf8.RuneCountInString(rows[i][c]))
			}
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for c := range 3 {
			b.WriteString(r[c])
			b.WriteString(strings.Repeat(" ", width[c]-utf8.RuneCountInString(r[c])+2))
		}
		b.WriteString(r[3])
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
