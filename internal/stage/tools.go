package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// Interpreters are the shell.allow binaries that take a script with -c;
// every other binary gets the command split into arguments.
func Interpreters() []string { return []string{"bash", "sh", "zsh", "fish", "dash", "ksh"} }

// IsInterpreter reports whether bin is one of Interpreters.
func IsInterpreter(bin string) bool { return slices.Contains(Interpreters(), bin) }

// shellSchema is the input schema of a generated shell-tool manifest.
const shellSchema = `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`

// checkDirName refuses a declared name that is not one plain path
// component. Murmur does not check artifact names at run time, so a name
// such as "../x" would have written outside tools/; mur-go refuses it.
func checkDirName(name, what string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`+"\x00") {
		return &diag.Error{Code: CodeIO,
			Msg:  fmt.Sprintf("%s '%s' cannot be staged: the name must be a single directory name under tools/", what, name),
			Hint: "use a plain name such as my-tool (no '/', '\\' or '..')"}
	}
	return nil
}

// writeTools writes tools/ in Murmur's order, so that colliding names end
// up the same way: every registry manifest, then native binaries, then
// skill files, then a generated manifest for each shell.allow binary that
// has none yet (security.md §5.1). root is the session dir; every write
// stays inside it and refuses a planted link.
func writeTools(c *created, root *os.Root, toolsDir string, arts []*staged, shellAllow []string) ([]ShellTool, error) {
	rel := func(parts ...string) string { return filepath.Join(append([]string{"tools"}, parts...)...) }
	for _, s := range arts {
		s.Dir = filepath.Join(toolsDir, s.Name)
		if err := c.mkdirIn(root, rel(s.Name)); err != nil {
			return nil, writeErr(s.Name, s.Dir, err)
		}
		if s.Local {
			continue
		}
		s.ManifestPath = filepath.Join(s.Dir, "murmur.yaml")
		if err := c.writeNew(root, rel(s.Name, "murmur.yaml"), s.ManifestYAML, 0o644); err != nil {
			return nil, writeErr(s.Name, s.ManifestPath, err)
		}
	}
	for _, s := range arts {
		if s.Kind != KindNative {
			continue
		}
		s.BinaryPath = filepath.Join(s.Dir, s.Name)
		if err := c.writeNew(root, rel(s.Name, s.Name), s.binary, 0o755); err != nil {
			return nil, writeErr(s.Name, s.BinaryPath, err)
		}
	}
	for _, s := range arts {
		if s.Kind != KindSkill {
			continue
		}
		s.SkillPath = filepath.Join(s.Dir, "skill.md")
		if err := c.writeNew(root, rel(s.Name, "skill.md"), []byte(s.SkillText), 0o644); err != nil {
			return nil, writeErr(s.Name, s.SkillPath, err)
		}
	}
	shells := make([]ShellTool, 0, len(shellAllow))
	for _, bin := range shellAllow {
		st := ShellTool{Name: bin, Interpreter: IsInterpreter(bin)}
		if checkDirName(bin, "shell binary") != nil {
			// A path-like entry still works as a shell tool by name; it
			// just gets no manifest of its own.
			shells = append(shells, st)
			continue
		}
		path := filepath.Join(toolsDir, bin, "murmur.yaml")
		if _, err := root.Lstat(rel(bin, "murmur.yaml")); err == nil {
			shells = append(shells, st)
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, writeErr(bin, path, err)
		}
		if err := c.mkdirIn(root, rel(bin)); err != nil {
			return nil, writeErr(bin, path, err)
		}
		mf, rec := shellManifest(bin)
		if err := c.writeNew(root, rel(bin, "murmur.yaml"), mf, 0o644); err != nil {
			return nil, writeErr(bin, path, err)
		}
		st.Generated, st.ManifestYAML, st.Manifest = true, mf, rec
		shells = append(shells, st)
	}
	return shells, nil
}

// shellManifest is the synthetic tool manifest that makes a shell.allow
// binary a model-visible tool (session.md §2.2): the text written to
// tools/<bin>/murmur.yaml and the same manifest as the inventory reads it.
func shellManifest(bin string) ([]byte, *manifest.ToolRecord) {
	desc := fmt.Sprintf("Runs %s in the capsule workdir: command is the argument list, omit the binary name (write --version, not %s --version).", bin, bin)
	if IsInterpreter(bin) {
		desc = fmt.Sprintf("Runs a shell command with %s in the capsule workdir: command passed via -c.", bin)
	}
	yaml := fmt.Appendf(nil, "name: %s\nversion: 0.0.0\nruntime: %s\nimplementation: native\ndescription: %s\ninput_schema: %s\n",
		strconv.Quote(bin), manifest.RuntimeTool, strconv.Quote(desc), strconv.Quote(shellSchema))
	return yaml, &manifest.ToolRecord{Runtime: manifest.RuntimeTool, Description: desc, InputSchema: shellSchema}
}

// setShellManifest records the tool manifest an on-stage hook wrote over
// tools/<name>/murmur.yaml (wit.md §6.3), read here, once, the way the
// tool inventory lists it. A name that is no shell tool, or whose
// directory a staged artifact provided, is left alone: the inventory
// lists that artifact from its verified manifest. Text that is no tool
// manifest is kept for manage.describe but leaves the tool out of the
// inventory, as Murmur leaves out a manifest it cannot read; the error
// says why. Only staging calls it (through the on-stage hooks' view),
// before any view of the shell tools is handed on.
func (s *Staged) setShellManifest(name string, content []byte) error {
	i := slices.IndexFunc(s.shellTools, func(st ShellTool) bool { return st.Name == name && st.Generated })
	if i < 0 {
		return nil
	}
	rec, err := manifest.ParseToolRecord(content, filepath.Join("tools", name, "murmur.yaml"))
	s.shellTools[i].ManifestYAML, s.shellTools[i].Manifest = slices.Clone(content), rec
	return err
}

func writeErr(name, path string, err error) *diag.Error {
	return ioError(fmt.Sprintf("failed to write %s: %v", path, err), err)
}
