package manifest

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/manifestio"
)

// ParseOptions controls Parse.
type ParseOptions struct {
	// Role forces a schema; RoleAuto detects it (see RoleAuto).
	Role Role
	// Env resolves ${VAR} in inference.api_key. nil means the process
	// environment (os.LookupEnv).
	Env EnvFunc
	// ScanSecrets adds the W-SEC-004 literal-secret warnings `mur build`
	// prints. Off by default: Murmur runs the scan only when building.
	ScanSecrets bool
}

// LoadOptions controls LoadWith.
type LoadOptions struct {
	Role        Role
	Env         EnvFunc
	ScanSecrets bool
	// NoEnvFile skips the .env file (`mur run --no-env-file`).
	NoEnvFile bool
	// EnvFileDir reads <EnvFileDir>/.env instead of searching upward from
	// the manifest (`mur eval run` uses the project dir as is).
	EnvFileDir string
}

// Load reads a murmur.yaml, layering the .env file found beside it (see
// FindDotEnv) under env — the process environment always wins — and
// parses it. env nil means os.LookupEnv. The error, if any, joins every
// *diag.Error found.
func Load(path string, env EnvFunc) (*File, []Warning, error) {
	return LoadWith(path, LoadOptions{Env: env})
}

// LoadWith is Load with options.
func LoadWith(path string, opts LoadOptions) (*File, []Warning, error) {
	data, err := manifestio.ReadFile(path)
	if err != nil {
		var big *SizeError
		if errors.As(err, &big) {
			return nil, nil, err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, diag.Wrap(CodeNotFound, err, "%s not found at %s", FileName, path).
				WithHint("run the command in a capsule directory, or pass the manifest path").At(At(path, "", 0, 0))
		}
		return nil, nil, diag.Wrap(CodeIO, err, "failed to read %s at %s: %v", FileName, path, err).At(At(path, "", 0, 0))
	}
	env := opts.Env
	if env == nil {
		env = os.LookupEnv
	}
	var dotPath string
	var dot []EnvVar
	if !opts.NoEnvFile {
		dir := opts.EnvFileDir
		if dir == "" {
			dir = FindDotEnvDir(filepath.Dir(path))
		}
		p := filepath.Join(dir, ".env")
		vars, derr := LoadDotEnv(p)
		switch {
		case derr == nil:
			dotPath, dot = p, vars
			env = LayerEnv(env, vars)
		case !errors.Is(derr, fs.ErrNotExist):
			return nil, nil, derr
		}
	}
	f, warns, err := Parse(data, path, ParseOptions{Role: opts.Role, Env: env, ScanSecrets: opts.ScanSecrets})
	if f != nil {
		f.DotEnvPath, f.DotEnv = dotPath, dot
	}
	return f, warns, err
}

// Parse parses a murmur.yaml held in memory. filename is used in messages
// and for File.Path/Dir ("" reads as murmur.yaml). On error the File is nil
// and the error joins every *diag.Error found, in Murmur's check order, so the
// first one is the one Murmur would report.
func Parse(data []byte, filename string, opts ParseOptions) (*File, []Warning, error) {
	display := filename
	if display == "" {
		display = FileName
	}
	// Callers holding the text already read it bounded; this keeps one
	// that did not from paying the parse.
	if len(data) > MaxSize {
		return nil, nil, manifestio.TooLarge(display, int64(len(data)))
	}
	env := opts.Env
	if env == nil {
		env = os.LookupEnv
	}
	root, err := parseYAML(data, display)
	if err != nil {
		return nil, nil, err
	}
	role := opts.Role
	if role == RoleAuto {
		role = detectRole(root)
	}
	f := &File{Path: filename, Role: role, env: env}
	if filename != "" {
		f.Dir = filepath.Dir(filename)
	}
	d := &decoder{file: display}
	if role == RoleArtifact {
		d.typeC = CodeInvalid
		f.Artifact = d.artifact(root)
	} else {
		d.typeC = CodeSyntax
		f.Capsule = d.capsule(root, env)
		d.warns = append(d.warns, literalRefs(root, display)...)
	}
	if opts.ScanSecrets {
		d.warns = append(d.warns, scanSecrets(root, display)...)
	}
	if len(d.errs) > 0 {
		return nil, d.warns, errors.Join(d.errs...)
	}
	return f, d.warns, nil
}

// artifactOnlyKeys mark an artifact manifest: `runtime:` is required there
// and, like the others, has no meaning at the top of a capsule manifest.
var artifactOnlyKeys = []string{"runtime", "implementation", "execution", "requires_files", "binding", "execution_mode", "commit_policy", "input_schema", "output_schema"}

// detectRole picks the artifact schema when a top-level key only an
// artifact manifest has is present, else the capsule schema.
func detectRole(root *yaml.Node) Role {
	n := deref(root)
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := deref(n.Content[i]); k != nil && k.Kind == yaml.ScalarNode && contains(artifactOnlyKeys, k.Value) {
				return RoleArtifact
			}
		}
	}
	return RoleCapsule
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseYAML returns the root node of the single document (nil for an
// empty file). More than one document is an error, as in Murmur.
func parseYAML(data []byte, display string) (root *yaml.Node, err error) {
	defer func() {
		// The YAML library is mature but this parser faces untrusted input;
		// never let a bug there take the process down.
		if r := recover(); r != nil {
			root, err = nil, diag.New(CodeSyntax, "YAML syntax error: %v", r).At(At(display, "", 0, 0))
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, syntaxError(err, display, data)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, syntaxError(err, display, data)
		}
		l, c := pos(&extra)
		return nil, diag.New(CodeSyntax, "YAML syntax error: more than one YAML document in the file").
			WithHint("remove the '---' separator; a murmur.yaml holds one document").At(At(display, "", l, c))
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

func syntaxError(err error, display string, data []byte) *diag.Error {
	line := 0
	msg := err.Error()
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	hint := "check indentation and quoting near that line; values containing ': ', '{' or '#' need quotes"
	if l := tabIndentedLine(data, line); l > 0 {
		hint = tabHint(l)
	}
	return diag.Wrap(CodeSyntax, err, "YAML syntax error: %s", msg).WithHint(hint).At(At(display, "", line, 0))
}
