package artifact

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DefaultSkillVersion is the version mur build --skill uses without --version.
const DefaultSkillVersion = "0.1.0"

// SkillOptions configures BuildSkill.
type SkillOptions struct {
	// Skill is the --skill value: a path if it contains a separator or
	// starts with '.', otherwise the artifact name; "" infers the name.
	Skill string
	// Source is the input when Skill is a name or empty; "" means ".".
	Source string
	// Version of the package; "" means DefaultSkillVersion.
	Version string
	// Summary, if set, becomes the manifest's description.
	Summary string
	// OutDir receives <name>-<version>.mur.zip; "" means the working directory.
	OutDir string
	// MaxEntry is the decompression ceiling for zip input; 0 means the default.
	MaxEntry int64
}

// skillFile is one input file of a skill package.
type skillFile struct {
	name string
	data []byte
}

// BuildSkill packages a skill (a directory or .zip with a SKILL.md) as a
// static artifact: murmur.yaml, skill.md, then every other file as extras.
// A manifest is generated when the input has none.
func BuildSkill(ctx context.Context, opt SkillOptions) (*BuildResult, error) {
	input, name := opt.Source, opt.Skill
	if input == "" {
		input = "."
	}
	if strings.ContainsAny(opt.Skill, `/\`) || strings.HasPrefix(opt.Skill, ".") {
		input, name = opt.Skill, ""
	}
	if name == "" {
		name = InferSkillName(input)
	}
	version := opt.Version
	if version == "" {
		version = DefaultSkillVersion
	}
	outDir := opt.OutDir
	if outDir == "" {
		outDir = "."
	}
	out, err := filepath.Abs(filepath.Join(outDir, FileName(name, version, nil)))
	if err != nil {
		return nil, newError(CodeIO, "", err, err.Error())
	}
	files, err := readSkillInput(input, out, opt.MaxEntry)
	if err != nil {
		return nil, err
	}
	skill, manifest, extras := splitSkillFiles(files)
	if skill == nil {
		return nil, newError(CodeNotFound, "add a SKILL.md (any case) with the skill's instructions", nil,
			fmt.Sprintf("SKILL.md not found in %s (case-insensitive search found no match)", input))
	}
	mdata, err := skillManifest(manifest, name, version, opt.Summary)
	if err != nil {
		return nil, err
	}
	entries := []zipSource{{name: ManifestEntry, data: mdata}, {name: SkillEntry, data: skill.data}}
	for _, f := range extras {
		entries = append(entries, zipSource{name: f.name, data: f.data})
	}
	if err := writeZipAtomic(ctx, out, entries); err != nil {
		return nil, newError(CodeIO, "check that the working directory is writable", err,
			fmt.Sprintf("failed to write %s: %v", out, err))
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, newError(CodeIO, "", err, err.Error())
	}
	res := &BuildResult{Path: out, Type: Static, SHA256: SHA256Hex(data), Size: int64(len(data))}
	for _, e := range entries {
		res.Entries = append(res.Entries, e.name)
	}
	res.Manifest, _ = ParseManifest(mdata)
	return res, nil
}

// InferSkillName derives an artifact name from the input path: its last
// component without .zip, lower-cased, other characters turned into '_',
// runs of '_' collapsed and '_'/'-' trimmed; "skill" if nothing is left.
func InferSkillName(input string) string {
	base := strings.TrimRight(input, `/\`)
	if abs, err := filepath.Abs(base); err == nil && (base == "" || base == "." || base == "..") {
		base = abs // "." names the directory it stands for
	}
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if strings.HasSuffix(strings.ToLower(base), ".zip") {
		base = base[:len(base)-len(".zip")]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		} else if !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	if s := strings.Trim(b.String(), "_-"); s != "" {
		return s
	}
	return "skill"
}

// readSkillInput reads the regular files at the top of a directory, or the
// root entries of a .zip (through the decompression ceiling, which Murmur
// skips here). The output package itself is never read back in.
func readSkillInput(input, out string, maxEntry int64) ([]skillFile, error) {
	if maxEntry <= 0 {
		maxEntry = DefaultMaxDecompressedBytes
	}
	notFound := func(err error) error {
		return newError(CodeNotFound, "pass a skill directory or .zip containing SKILL.md", err,
			fmt.Sprintf("skill input %s not found: %v", input, unwrapPathError(err)))
	}
	if strings.HasSuffix(strings.ToLower(input), ".zip") {
		data, err := os.ReadFile(input)
		if err != nil {
			return nil, notFound(err)
		}
		pkg, err := Open(data, maxEntry)
		if err != nil {
			return nil, err
		}
		var files []skillFile
		for _, n := range pkg.Names() {
			if strings.ContainsAny(n, `/\`) || pkg.files[n].Mode().IsDir() {
				continue
			}
			b, err := pkg.ReadEntry(n)
			if err != nil {
				return nil, err
			}
			files = append(files, skillFile{n, b})
		}
		return files, nil
	}
	ents, err := os.ReadDir(input)
	if err != nil {
		return nil, notFound(err)
	}
	var files []skillFile
	for _, e := range ents {
		p := filepath.Join(input, e.Name())
		if !e.Type().IsRegular() || samePath(p, out) || strings.HasPrefix(e.Name(), "."+filepath.Base(out)) {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, newError(CodeIO, "", err, fmt.Sprintf("failed to read %s: %v", p, err))
		}
		files = append(files, skillFile{e.Name(), b})
	}
	return files, nil
}

// splitSkillFiles picks skill.md (exact name first, else the first
// case-insensitive match) and murmur.yaml (case-insensitive); the rest are
// extras, in name order.
func splitSkillFiles(files []skillFile) (skill, manifest *skillFile, extras []skillFile) {
	slices.SortFunc(files, func(a, b skillFile) int { return strings.Compare(a.name, b.name) })
	pick := func(want string) *skillFile {
		i := slices.IndexFunc(files, func(f skillFile) bool { return f.name == want })
		if i < 0 {
			i = slices.IndexFunc(files, func(f skillFile) bool { return strings.EqualFold(f.name, want) })
		}
		if i < 0 {
			return nil
		}
		f := files[i]
		files = slices.Delete(files, i, i+1)
		return &f
	}
	skill, manifest = pick(SkillEntry), pick(ManifestEntry)
	return skill, manifest, files
}

// skillManifest returns the manifest to pack: the input's own (which must
// say runtime: skill), byte-for-byte unless a summary is set, or a generated
// one.
func skillManifest(f *skillFile, name, version, summary string) ([]byte, error) {
	if f == nil {
		s := fmt.Sprintf("name: %s\nversion: %s\nruntime: skill\n", name, singleQuote(version))
		if summary != "" {
			s += "description: " + singleQuote(summary) + "\n"
		}
		return []byte(s), nil
	}
	m, err := ParseManifest(f.data)
	if err != nil {
		return nil, err
	}
	if m.Runtime != "skill" {
		return nil, newError(CodeInvalid, "set runtime: skill in the skill's murmur.yaml, or remove it to have one generated", nil,
			fmt.Sprintf("murmur.yaml declares runtime: %q but --skill requires runtime: skill", m.Runtime))
	}
	if summary == "" {
		return f.data, nil
	}
	return setDescription(f.data, summary)
}

// setDescription re-serialises the manifest with description set, keeping
// the other keys in their order.
func setDescription(data []byte, summary string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, newError(CodeSyntax, "fix the YAML syntax in murmur.yaml", err, "murmur.yaml: YAML syntax error: "+err.Error())
	}
	root := doc.Content[0]
	val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: summary}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "description" {
			root.Content[i+1] = val
			return encodeYAML(&doc)
		}
	}
	root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "description"}, val)
	return encodeYAML(&doc)
}

func encodeYAML(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(n); err != nil {
		return nil, newError(CodeIO, "", err, "failed to write murmur.yaml: "+err.Error())
	}
	return buf.Bytes(), enc.Close()
}

// singleQuote writes s as a YAML single-quoted scalar.
func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
