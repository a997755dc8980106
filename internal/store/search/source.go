package search

import (
	"context"
	"os"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/registry"
)

// DefaultIndexURL is Murmur's public artifact index, searched when no
// --registry is given.
const DefaultIndexURL = "https://raw.githubusercontent.com/murmur-nexus/default-artifacts/refs/heads/main/artifacts-index.json"

// Kind is where an index comes from.
type Kind int

const (
	Local Kind = iota // the global store's metadata
	File              // an index file at an absolute path
	URL               // an index fetched over http or https
	OCI               // an oci://HOST[:PORT]/PREFIX registry's catalog, which the caller lists
)

// Source is one index to search.
type Source struct {
	Kind  Kind
	Where string // the path or URL; empty for Local
}

// ParseSource reads a --registry value as Murmur does: "local" is the
// global store, a value starting with '/' an index file, empty the public
// index. Murmur fetches anything else as a URL; mur refuses what is not
// an http or https URL (ErrBadSource), so a relative path is not sent to
// a resolver as a host name. An oci:// value is an OCI registry (mur-go's
// addition); this package does not read one: the caller lists it through
// package oci, which sits beside this one.
func ParseSource(value string) (Source, error) {
	switch {
	case value == "":
		return Source{Kind: URL, Where: DefaultIndexURL}, nil
	case value == "local":
		return Source{Kind: Local}, nil
	case strings.HasPrefix(value, "/"):
		return Source{Kind: File, Where: value}, nil
	case strings.HasPrefix(value, "http://"), strings.HasPrefix(value, "https://"):
		return Source{Kind: URL, Where: value}, nil
	case strings.HasPrefix(strings.ToLower(value), "oci://"):
		return Source{Kind: OCI, Where: value}, nil
	}
	return Source{}, sourceError(value)
}

// Load reads the entries of src. getenv finds the global store (HOME).
// An OCI source is not read here (see ParseSource).
func Load(ctx context.Context, src Source, getenv func(string) string) ([]Entry, error) {
	switch src.Kind {
	case OCI:
		return nil, diag.New(CodeIO, "%s is an OCI registry: list it through package oci", src.Where)
	case Local:
		return scanLocal(ctx, getenv)
	case File:
		data, err := readFile(src.Where)
		if err != nil {
			return nil, err
		}
		return Decode(data, src.Where)
	}
	data, err := Fetch(ctx, src.Where)
	if err != nil {
		return nil, err
	}
	return Decode(data, src.Where)
}

// readFile reads an index file under MaxIndexBytes.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, readError(path, err)
	}
	defer f.Close()
	data, err := readCapped(f)
	if err == errTooLarge {
		return nil, tooLargeError(path)
	} else if err != nil {
		return nil, readError(path, err)
	}
	return data, nil
}

// scanLocal is the global store's metadata as index entries.
func scanLocal(ctx context.Context, getenv func(string) string) ([]Entry, error) {
	root, err := registry.GlobalRoot(getenv)
	if err != nil {
		return nil, err
	}
	metas, err := registry.NewLocal(root, nil).List(ctx)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(metas))
	for _, m := range metas {
		entries = append(entries, fromMeta(m))
	}
	return entries, nil
}

func fromMeta(m artifact.Meta) Entry {
	e := Entry{Name: m.Name, Version: m.Version, Runtime: m.ArtifactRuntime, Description: m.Description,
		Tags: m.Tags, Platforms: make([]string, 0, len(m.Platforms))}
	for _, p := range m.Platforms {
		e.Platforms = append(e.Platforms, p.String())
	}
	return e
}
