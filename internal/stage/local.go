package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// localSkill reads a source: entry's guidance before anything is created
// (manifest.md §4): the path is relative to the project dir unless
// absolute; a directory is searched one level deep for skill.md in any
// case; a file is read whatever its name. Every role becomes a skill file,
// with no murmur.yaml, so it is callable but not in the tool inventory.
func localSkill(projectDir string, ref *manifest.ArtifactRef) (*staged, error) {
	p := ref.Source
	if !filepath.IsAbs(p) {
		p = filepath.Join(projectDir, p)
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &diag.Error{Code: CodeNotFound, Err: err,
			Msg:  "skill source path not found: " + p,
			Hint: fmt.Sprintf("fix source: of artifact '%s' (relative paths start at the directory of murmur.yaml)", ref.Name)}
	}
	if err != nil {
		return nil, ioError(fmt.Sprintf("failed to read skill source %s: %v", p, err), err)
	}
	file := p
	if fi.IsDir() {
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, ioError(fmt.Sprintf("failed to read skill source %s: %v", p, err), err)
		}
		file = ""
		for _, e := range ents {
			if strings.EqualFold(e.Name(), "skill.md") {
				file = filepath.Join(p, e.Name())
				break
			}
		}
		if file == "" {
			return nil, &diag.Error{Code: CodeNotFound,
				Msg:  fmt.Sprintf("skill source directory '%s' contains no skill.md", p),
				Hint: "add a skill.md to that directory, or point source: at the guidance file itself"}
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, ioError(fmt.Sprintf("failed to read skill source %s: %v", file, err), err)
	}
	a := &Artifact{Name: ref.Name, Version: ref.Version, Role: Role(ref.Runtime), Kind: KindSkill,
		Ref: ref, Local: true, SourcePath: file, SkillText: string(data)}
	return &staged{Artifact: a}, nil
}
