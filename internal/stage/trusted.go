package stage

import (
	"os"
	"path/filepath"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/registry"
)

// ComponentFile is a script capsule's preferred component beside
// murmur.yaml (a2a-cli.md §6.3): one placed there wins at the next run.
const ComponentFile = "capsule.wasm"

// TrustedPath is a file or directory whose content the runtime reads and
// believes at a later run of the capsule (or later in this one): the
// manifest and what it references, .env, murmur.lock, the stores, the
// compile cache, the mur binary. No guest or subprocess may read or
// change one, and it need not exist: a .env or murmur.lock a guest
// created would be believed next time just the same.
type TrustedPath struct {
	// Path is absolute and clean.
	Path string
	// What names it in messages.
	What string
	// Secret marks what must not even be read: .env, ~/.murmur (the
	// checkpoint keys), a manifest holding a literal api_key.
	Secret bool
}

// trustedPaths is the one list of what a capsule's runs trust, from the
// manifest f and the options staging was given (defaults filled in).
// HiddenUnder keeps every entry from every WASM preopen; checkTrusted
// refuses a workdir that would hand one to a guest or subprocess.
func trustedPaths(f *manifest.File, opts *Options) []TrustedPath {
	var out []TrustedPath
	put := func(p, what string, secret bool) {
		if p == "" {
			return
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return
		}
		for _, t := range out {
			if t.Path == abs {
				return
			}
		}
		out = append(out, TrustedPath{Path: abs, What: what, Secret: secret})
	}
	add := func(p, what string) { put(p, what, false) }
	c := f.Capsule
	manifestPath, _ := filepath.Abs(f.Path)
	project := filepath.Dir(manifestPath)
	put(manifestPath, "the manifest", c.Inference != nil && c.Inference.HasAPIKey && c.Inference.APIKeyVar == "")
	// Where the next run looks for .env, whether or not this one read it
	// (--no-env-file) and whether or not it exists yet.
	put(f.DotEnvPath, ".env", true)
	put(filepath.Join(manifest.FindDotEnvDir(project), ".env"), ".env", true)
	add(opts.LockPath, "murmur.lock")
	// Of the project's .murmur/ only these: under a --workdir that is the
	// project dir, .murmur/<session id> is also where sessions keep their
	// bookkeeping, which the runtime never believes.
	add(registry.ProjectRoot(project), "the project's artifact store")
	add(filepath.Join(project, ".murmur", "config.yaml"), "the project's .murmur/config.yaml")
	for _, st := range opts.Stores {
		if filepath.IsAbs(st.Name) {
			add(st.Name, "an artifact store")
		}
	}
	if global, err := registry.GlobalRoot(opts.Getenv); err == nil {
		put(filepath.Dir(global), "~/.murmur (global store, checkpoint keys, running sessions)", true)
	}
	if cache, err := component.CacheDir(opts.CacheDir); err == nil {
		add(cache, "the compile cache (code mur runs)")
	}
	if self, err := os.Executable(); err == nil {
		add(self, "the mur binary")
	}
	if inf := c.Inference; inf != nil {
		if p := inf.SystemPromptFile; p != "" {
			if !filepath.IsAbs(p) {
				p = filepath.Join(project, p)
			}
			add(p, "inference.system_prompt_file")
		}
		if cc := inf.Compaction; cc != nil && cc.SystemPromptFile != "" {
			// Joined as the compaction reads it, absolute or not.
			add(filepath.Join(project, cc.SystemPromptFile), "inference.compaction.system_prompt_file")
		}
	}
	for i := range c.Artifacts {
		ref := &c.Artifacts[i]
		if !ref.IsLocal() {
			continue
		}
		p := ref.Source
		if !filepath.IsAbs(p) {
			p = filepath.Join(project, p)
		}
		what := "source: of artifact '" + ref.Name + "'"
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			// The first skill.md in any case is read: hiding compares
			// names without regard to case, so a SKILL.MD planted
			// beside it is kept out too.
			p = filepath.Join(p, "skill.md")
		}
		add(p, what)
	}
	if !c.IsAgent() {
		add(filepath.Join(project, ComponentFile), "the capsule's component")
		add(opts.ComponentPath, "the capsule's component")
	}
	return out
}
