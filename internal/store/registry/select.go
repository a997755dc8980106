package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/manifestio"
)

// Target says which registry a command talks to.
type Target struct {
	Remote bool   // false: the global store
	URL    string // remote base URL, trailing '/' trimmed
	Why    string // how it was chosen, for diagnostics
}

func (t Target) String() string {
	if t.Remote {
		return t.URL
	}
	return "local"
}

// Select applies Murmur's order (first match wins): the --registry value
// ("local" in any case, else a URL); registry.remote_url in
// <cwd>/murmur.yaml; registry.default there (local, or remote meaning
// http://localhost:7800); else local.
func Select(flag, cwd string) (Target, error) {
	if v := strings.TrimSpace(flag); v != "" {
		if strings.EqualFold(v, "local") {
			return Target{Why: "--registry local"}, nil
		}
		return Target{Remote: true, URL: strings.TrimRight(v, "/"), Why: "--registry"}, nil
	}
	path := filepath.Join(cwd, "murmur.yaml")
	data, err := manifestio.ReadFile(path)
	var big *manifestio.SizeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Target{Why: "default"}, nil
	case errors.As(err, &big):
		return Target{}, err
	case err != nil:
		return Target{}, &diag.Error{Code: CodeIO, Err: err, Msg: fmt.Sprintf("failed to read %s: %v", path, err)}
	}
	var doc struct {
		Registry struct {
			Default   string `yaml:"default"`
			RemoteURL string `yaml:"remote_url"`
		} `yaml:"registry"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Target{}, &diag.Error{Code: CodeIO, Err: err, Msg: fmt.Sprintf("failed to parse %s: %v", path, err),
			Hint: "fix murmur.yaml, or pass --registry to choose the registry explicitly"}
	}
	if u := strings.TrimSpace(doc.Registry.RemoteURL); u != "" {
		return Target{Remote: true, URL: strings.TrimRight(u, "/"), Why: "registry.remote_url in " + path}, nil
	}
	switch d := strings.TrimSpace(doc.Registry.Default); d {
	case "", "local":
		return Target{Why: "default"}, nil
	case "remote":
		return Target{Remote: true, URL: DefaultRemoteURL, Why: "registry.default: remote in " + path}, nil
	default:
		return Target{}, &diag.Error{Code: CodeIO, Err: ErrInvalidInput,
			Msg:  fmt.Sprintf("invalid registry.default '%s' (expected local|remote)", d),
			Hint: "set registry.default to local or remote in " + path}
	}
}

// Open returns the registry for t: the global store, or a client that needs
// NEXUS_API_KEY from getenv.
func (t Target) Open(getenv func(string) string, log *slog.Logger) (Registry, error) {
	if !t.Remote {
		root, err := GlobalRoot(getenv)
		if err != nil {
			return nil, err
		}
		return NewLocal(root, log), nil
	}
	key := getenv(APIKeyEnv)
	if key == "" {
		return nil, &diag.Error{Code: CodeIO, Err: ErrAuth,
			Msg:  "NEXUS_API_KEY is required for remote registry mode. Set it or use local mode.",
			Hint: "export NEXUS_API_KEY=<key of " + t.URL + ">, or pass --registry local"}
	}
	return NewClient(t.URL, key, nil, log), nil
}
