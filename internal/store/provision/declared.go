package provision

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/manifestio"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
)

// Declared is one registry artifact a capsule manifest asks for.
type Declared struct{ Name, Version string }

// ReadDeclared reads the registry artifacts the capsule manifest at path
// declares, in order, skipping local-source entries and duplicates.
//
// It is a narrow reader of artifacts[]: name, version and source, so a
// capsule whose other fields a newer Murmur added still installs. When
// artifacts[] cannot be read, the manifest package's positioned error is
// the one reported, as every command prints it.
func ReadDeclared(path string) ([]Declared, error) {
	data, err := manifestio.ReadFile(path)
	var big *manifestio.SizeError
	if errors.As(err, &big) {
		return nil, err
	}
	if err != nil {
		return nil, &diag.Error{Code: artifact.CodeIO, Err: err, Msg: "failed to load manifest: " + err.Error()}
	}
	fail := func(msg string) error {
		if _, _, perr := manifest.Parse(data, path, manifest.ParseOptions{Role: manifest.RoleCapsule}); perr != nil {
			return perr
		}
		return &diag.Error{Code: artifact.CodeIO, Msg: "failed to load manifest: " + msg,
			Hint: "fix " + path + "; each artifacts entry needs name and version (or source for a local skill)"}
	}
	var doc struct {
		Artifacts []struct {
			Name    string `yaml:"name"`
			Version string `yaml:"version"`
			Source  string `yaml:"source"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fail(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var out []Declared
	seen := map[Declared]bool{}
	for i, a := range doc.Artifacts {
		name, version := strings.TrimSpace(a.Name), strings.TrimSpace(a.Version)
		switch {
		case name == "":
			return nil, fail(fmt.Sprintf("murmur.yaml: invalid artifact declaration at index %d: missing required field 'name'", i))
		case strings.TrimSpace(a.Source) != "":
			continue
		case version == "":
			return nil, fail(fmt.Sprintf("murmur.yaml: invalid artifact declaration at index %d: missing required field 'version'", i))
		}
		d := Declared{name, version}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}
