package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/format/artifact"
)

const buildLong = `Package an artifact directory as a .mur.zip.

The directory holds murmur.yaml (name, version, runtime) and the files it
lists under requires_files. The package contains murmur.yaml first, then
those files in the order declared, each under the path written there. A
wasm artifact must ship exactly one root .wasm (or a capsule.wasm), which
is the component that runs. Nothing is written if any check fails.

With --skill, package a skill instead: a directory or .zip holding SKILL.md
(any case) becomes a static artifact; every other top-level file is packed
too, and murmur.yaml is generated when there is none.

The same inputs always give the same bytes, so the same sha256.`

const buildExample = `  # in a directory with murmur.yaml and my_tool.wasm
  mur build
  # another directory, package written to dist/
  mur build examples/artifacts/canned-tool -o dist/
  # a skill directory; name inferred from it, version 0.1.0
  mur build --skill ./review-skill
  # a skill with an explicit name, version and description
  mur build --skill=code-review ./review-skill --version 1.0.0 --summary "Review conventions"`

func newBuildCommand(a *app) *cobra.Command {
	var output, skillVersion, summary string
	var skill optionalName
	cmd := &cobra.Command{
		Use:     "build [SOURCE]",
		Short:   "Package an artifact directory (or a skill) as a .mur.zip",
		Long:    buildLong,
		Example: buildExample,
		Args:    maxArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("skill") {
				return a.buildSkill(cmd, skill.name, args, skillVersion, summary)
			}
			if len(args) > 1 {
				return usagef(cmd, "unexpected argument %q", args[1])
			}
			if cmd.Flags().Changed("version") || cmd.Flags().Changed("summary") {
				return usagef(cmd, "--version and --summary only apply with --skill (a standard build takes them from murmur.yaml)")
			}
			source := "."
			if len(args) == 1 {
				source = args[0]
			}
			return a.buildStandard(cmd, source, output)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&output, "output", "o", "", "output file (ending .mur.zip) or directory, created if it ends in / or has no extension (default <SOURCE>/<name>-<version>.mur.zip)")
	f.Var(&skill, "skill", "package a skill: `NAME` (optional) or a path to its directory or .zip")
	f.Lookup("skill").NoOptDefVal = optionalNameUnset
	f.StringVar(&skillVersion, "version", artifact.DefaultSkillVersion, "skill version (with --skill)")
	f.StringVar(&summary, "summary", "", "skill description written to its murmur.yaml (with --skill)")
	return cmd
}

func (a *app) buildStandard(cmd *cobra.Command, source, output string) error {
	file := filepath.Join(source, artifact.ManifestEntry)
	res, err := artifact.Build(cmd.Context(), artifact.BuildOptions{
		Source:      source,
		Output:      output,
		OnWarning:   func(w artifact.Warning) { fmt.Fprintln(a.stderr, w) },
		Parse:       artifactManifestParser(a.stderr, file),
		ScanSecrets: scanSecrets(file),
	})
	if err != nil {
		return err
	}
	a.log.Debug("built artifact", "path", res.Path, "entries", res.Entries, "sha256", res.SHA256)
	a.printBuilt(res)
	return nil
}

// buildSkill maps the --skill forms: "--skill" alone infers the name from
// the input; "--skill=NAME" or "--skill NAME" names it; a value with a path
// separator or a leading '.' is the input itself.
func (a *app) buildSkill(cmd *cobra.Command, skill string, args []string, version, summary string) error {
	if cmd.Flags().Changed("output") {
		return usagef(cmd, "-o does not apply with --skill: the package is written to ./<name>-<version>.mur.zip")
	}
	skill = strings.TrimSpace(skill)
	source := ""
	switch {
	case skill == "" && len(args) == 2:
		// "--skill NAME PATH": pflag left NAME among the arguments.
		skill, source = args[0], args[1]
	case skill == "" && len(args) == 1:
		// "--skill X": X is the name unless it names an input that exists.
		if isSkillInput(args[0]) {
			source = args[0]
		} else {
			skill = args[0]
		}
	case len(args) == 1:
		source = args[0]
	case len(args) == 2:
		return usagef(cmd, "unexpected argument %q", args[1])
	}
	res, err := artifact.BuildSkill(cmd.Context(), artifact.SkillOptions{
		Skill: skill, Source: source, Version: version, Summary: summary,
		MaxEntry: artifact.MaxDecompressedBytes(os.Getenv),
	})
	if err != nil {
		return err
	}
	a.printBuilt(res)
	return nil
}

func isSkillInput(p string) bool {
	info, err := os.Stat(p)
	return err == nil && (info.IsDir() || strings.HasSuffix(strings.ToLower(p), ".zip"))
}

func (a *app) printBuilt(res *artifact.BuildResult) {
	fmt.Fprintf(a.stdout, "Built artifact: %s\n", res.Path)
	what := string(res.Type)
	if res.Manifest != nil {
		what = res.Manifest.Runtime + ", " + what
		fmt.Fprintf(a.stdout, "  %s@%s (%s) · %d entries · %s · sha256 %s\n",
			res.Manifest.Name, res.Manifest.Version, what, len(res.Entries), humanBytes(res.Size), shortSHA(res.SHA256))
	}
	if res.Payload != "" {
		fmt.Fprintf(a.stdout, "  payload: %s\n", res.Payload)
	}
	rel := res.Path
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, res.Path); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
	}
	fmt.Fprintf(a.stdout, "  next: mur publish %s\n", rel)
}

// optionalName is a flag whose value may be omitted ("--skill" alone).
// It reports the type "bool" only so that help prints "--skill NAME"
// rather than pflag's "[=...]" for string flags with an optional value.
type optionalName struct{ name string }

// optionalNameUnset is what pflag passes when no value is given.
const optionalNameUnset = "true"

func (o *optionalName) String() string { return o.name }
func (o *optionalName) Type() string   { return "bool" }

func (o *optionalName) Set(s string) error {
	if s == optionalNameUnset {
		s = ""
	}
	o.name = s
	return nil
}
