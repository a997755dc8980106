package manifest

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// EnvFunc looks up an environment variable; ok is false when it is unset
// (set-but-empty is ok with value "").
type EnvFunc func(name string) (value string, ok bool)

// EnvVar is one KEY=VALUE entry of a .env file.
type EnvVar struct {
	Key, Value string
	Line       int
}

// envRef returns NAME when s (already trimmed) is exactly ${NAME} with
// NAME in [A-Z_][A-Z0-9_]*. Anything else ($NAME, ${lower}, x${NAME}) is
// literal text: interpolation is deliberately this narrow.
func envRef(s string) (string, bool) {
	if len(s) < 4 || !strings.HasPrefix(s, "${") || !strings.HasSuffix(s, "}") {
		return "", false
	}
	name := s[2 : len(s)-1]
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return "", false
		}
	}
	return name, true
}

// LayerEnv returns a lookup where base wins and vars fill in only what base
// does not set (even a variable set to "" in base is not overridden).
func LayerEnv(base EnvFunc, vars []EnvVar) EnvFunc {
	m := make(map[string]string, len(vars))
	for _, v := range vars {
		if _, dup := m[v.Key]; !dup {
			m[v.Key] = v.Value
		}
	}
	return func(name string) (string, bool) {
		if base != nil {
			if v, ok := base(name); ok {
				return v, true
			}
		}
		v, ok := m[name]
		return v, ok
	}
}

// FindDotEnvDir is where `mur run` looks for .env: walking up from the
// manifest dir, the first directory holding a murmur.yaml, else the
// manifest dir itself.
func FindDotEnvDir(manifestDir string) string {
	abs, err := filepath.Abs(manifestDir)
	if err != nil {
		return manifestDir
	}
	for dir := abs; ; {
		if st, err := os.Stat(filepath.Join(dir, FileName)); err == nil && !st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return manifestDir
		}
		dir = parent
	}
}

// LoadDotEnv reads and parses a .env file. A missing file is returned as
// the os error (test with errors.Is(err, fs.ErrNotExist)); a malformed
// one as a *diag.Error with code E-IO-003.
func LoadDotEnv(path string) ([]EnvVar, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, err
		}
		return nil, diag.Wrap(CodeIO, err, "failed to read %s: %v", path, err).At(At(path, "", 0, 0))
	}
	return ParseDotEnv(data, path)
}

// ParseDotEnv parses .env text: KEY=VALUE per line, blank and # lines
// skipped, key and value trimmed, one matching pair of surrounding quotes
// removed. No escapes, no `export`, no inline comments — the same dialect
// Murmur reads, so a file works identically under both runtimes.
func ParseDotEnv(data []byte, filename string) ([]EnvVar, error) {
	var vars []EnvVar
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, diag.New(CodeIO, "invalid .env entry at line %d: expected KEY=VALUE", n).
				WithHint("write NAME=value, or start the line with # to comment it out").At(At(filename, "", n, 1))
		}
		key = strings.TrimSpace(key)
		if key == "" {
			return nil, diag.New(CodeIO, "invalid .env entry at line %d: empty variable name", n).
				WithHint("put the variable name before '='").At(At(filename, "", n, 1))
		}
		vars = append(vars, EnvVar{Key: key, Value: unquote(strings.TrimSpace(val)), Line: n})
	}
	return vars, nil
}

// unquote removes one matching pair of surrounding quotes. A lone quote
// character stays literal (Murmur panics on it; that is a defect).
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
