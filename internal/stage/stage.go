// Package stage prepares a capsule session for `mur run`: it resolves
// every artifact the capsule manifest declares from the project and
// global stores, holds them to murmur.lock, verifies each package's sha256
// before reading a byte of it, compiles the WebAssembly payloads, and only
// then lays out the workdir (session.md §7): tools/<name>/ with each
// artifact's manifest, native binary or skill.md, generated shell-tool
// manifests, MURMUR.md for agent capsules, and the task input.
//
// Every check that can fail runs before the first directory is created,
// so a refused run leaves nothing behind; a write that fails part-way is
// rolled back. The result, a *Staged, is what the run pipeline hands on.
package stage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/install"
)

// Stage stages a session. The order is Murmur's (a2a-cli.md §6.3,
// artifacts.md §9.5, security.md §10.2), with every refusal before any
// write: capability ceiling, containment floor (E-CAP-003) and unenforceable
// resources, each remote MCP server's reach (E-CAP-001, checkMCP), --workdir, murmur.lock entries (the pinned versions asked
// for), store lookup (E-RUN-008), per artifact integrity, extraction,
// grants and compilation, the agent's driver declared (E-RUN-006), its
// reach to inference.endpoint (E-CAP-001, checkEndpoint), what the
// workdir would hand a guest or subprocess of what the runtime trusts
// (E-CAP-002, checkTrusted); then the workdir, tools/, MURMUR.md, the
// --workdir manifest copy and task.md.
func Stage(ctx context.Context, opts Options) (*Staged, error) {
	if opts.Manifest == nil || opts.Manifest.Capsule == nil {
		return nil, errors.New("stage: Options.Manifest must be a parsed capsule manifest")
	}
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	c := opts.Manifest.Capsule
	s := &Staged{Capsule: c, lock: opts.Lock, LockPath: opts.LockPath,
		Workdir: Workdir{secrets: opts.Secrets}, runtimeVersion: opts.RuntimeVersion, clock: opts.Clock}
	if s.secrets == nil {
		s.secrets = redact.New()
	}
	if c.Inference != nil {
		s.secrets.Add(c.Inference.APIKey) // for the session's life
	}
	for _, v := range c.MCP.Secrets() {
		s.secrets.Add(v) // the host sends them; nothing records them
	}
	var err error
	if s.manifestPath, err = filepath.Abs(opts.Manifest.Path); err != nil {
		return nil, ioError("failed to resolve the manifest path: "+err.Error(), err)
	}
	s.ProjectDir = filepath.Dir(s.manifestPath)

	if s.Ceiling, err = ceiling(c); err != nil {
		return nil, err
	}
	if s.Containment, err = checkCapabilities(c, opts.Containment, opts.Host, opts.Getenv("PATH")); err != nil {
		return nil, err
	}
	if err := checkMCP(c, opts.Manifest.Path, s.Ceiling.Network); err != nil {
		return nil, err
	}
	userDir := ""
	if opts.Workdir != "" {
		if userDir, err = userWorkdir(opts.Workdir, opts.Cwd); err != nil {
			return nil, err
		}
	}
	for i := range c.Artifacts {
		if err := checkDirName(c.Artifacts[i].Name, "artifact"); err != nil {
			return nil, err
		}
	}
	arts, err := prepare(ctx, s, &opts)
	if err != nil {
		return nil, err
	}
	if err := checkDriver(c); err != nil {
		return nil, err
	}
	if err := checkEndpoint(c, opts.Manifest.Path, arts); err != nil {
		return nil, err
	}
	s.securityWarnings(ctx, opts.Getenv("PATH"))
	if !c.IsAgent() && opts.CapsuleWasm != nil {
		if s.component, err = compile(ctx, announced(opts.Compiler, opts.OnCompile), "capsule "+c.Name, opts.CapsuleWasm); err != nil {
			return nil, err
		}
	}
	if err := s.mintID(&opts); err != nil {
		return nil, err
	}
	d := layout(s.ProjectDir, userDir, s.ID)
	s.trusted = trustedPaths(opts.Manifest, &opts)
	if err := s.checkTrusted(d); err != nil {
		return nil, err
	}

	if err := s.write(&s.made, arts, d, &opts); err != nil {
		s.Discard()
		return nil, err
	}
	if opts.OnStage != nil {
		if err := opts.OnStage(ctx, s.onStageView()); err != nil {
			s.Discard()
			return nil, err
		}
	}
	return s, nil
}

// prepare resolves, verifies, extracts and compiles every artifact in
// manifest order, entirely in memory.
func prepare(ctx context.Context, s *Staged, opts *Options) ([]*staged, error) {
	c := s.Capsule
	fetcher := &install.Fetcher{Sources: opts.Stores, Lock: opts.Lock, Mode: install.Frozen, Getenv: opts.Getenv,
		Payloads: payloadCache(ctx, opts.Compiler)}
	ws, notes, err := applyLock(c, fetcher)
	if err != nil {
		return nil, err
	}
	s.Notes = append(s.Notes, notes...)
	got, err := resolveAll(ctx, fetcher, ws, opts.Platform)
	if err != nil {
		return nil, err
	}
	byRef := make(map[int]fetched, len(got))
	for _, f := range got {
		byRef[indexOf(c, f.ref)] = f
	}
	arts := make([]*staged, 0, len(c.Artifacts))
	for i := range c.Artifacts {
		ref := &c.Artifacts[i]
		var st *staged
		if ref.IsLocal() {
			if st, err = localSkill(s.ProjectDir, ref); err != nil {
				return nil, err
			}
		} else {
			if st, err = extract(ctx, fetcher, byRef[i], announced(opts.Compiler, opts.OnCompile)); err != nil {
				return nil, err
			}
		}
		g, warns, err := artifactGrants(c, s.Ceiling, st.Artifact, i, opts.Workdir != "")
		if err != nil {
			return nil, err
		}
		st.Grants = g
		s.Warnings = append(s.Warnings, warns...)
		arts = append(arts, st)
		s.Artifacts = append(s.Artifacts, st.Artifact)
	}
	s.Pins = pins(s.Artifacts)
	return arts, nil
}

func indexOf(c *manifest.Capsule, ref *manifest.ArtifactRef) int {
	for i := range c.Artifacts {
		if &c.Artifacts[i] == ref {
			return i
		}
	}
	return -1
}

// mintID takes the caller's id or makes a new one.
func (s *Staged) mintID(opts *Options) error {
	if opts.SessionID != "" {
		if !ValidSessionID(opts.SessionID) {
			return fmt.Errorf("stage: session id %q is not ses_ followed by 32 lowercase hex digits", opts.SessionID)
		}
		s.ID = opts.SessionID
		return nil
	}
	id, err := NewSessionID(opts.Clock(), opts.Rand)
	if err != nil {
		return err
	}
	s.ID = id
	return nil
}

// write creates the workdir and everything in it. Failures roll back
// through made; only MURMUR.md and the manifest copy are best-effort, as
// in Murmur.
func (s *Staged) write(made *created, arts []*staged, d dirs, opts *Options) error {
	s.AccessibleDir, s.SessionDir, s.UserWorkdir = d.accessible, d.session, d.user
	s.ToolsDir = filepath.Join(s.SessionDir, "tools")
	s.OutDir = filepath.Join(s.SessionDir, "out")
	s.LogsDir = filepath.Join(s.SessionDir, "logs")
	if _, err := os.Lstat(s.SessionDir); err == nil {
		return ioError(fmt.Sprintf("session directory %s already exists", s.SessionDir), os.ErrExist)
	}
	if err := s.checkSealedHome(); err != nil {
		return err
	}
	// Only the fresh <project>/workdir/<id> is made by path; everything
	// in a --workdir and below the session dir is created through a Root
	// and must contain no link, so a link an earlier session's guest left
	// in a reused --workdir (.murmur itself, say) redirects nothing.
	if err := s.makeSessionDir(made); err != nil {
		return ioError(fmt.Sprintf("failed to create workdir %s: %v", s.SessionDir, err), err)
	}
	root, err := os.OpenRoot(s.SessionDir)
	if err != nil {
		return ioError(fmt.Sprintf("failed to open workdir %s: %v", s.SessionDir, err), err)
	}
	defer root.Close()
	for _, dir := range []string{"tools", "out", "logs"} {
		if err := made.mkdirIn(root, dir); err != nil {
			return ioError(fmt.Sprintf("failed to create workdir %s: %v", s.SessionDir, err), err)
		}
	}
	if err := s.writeBootstrapLog(root); err != nil {
		return err
	}
	shells, err := writeTools(made, root, s.ToolsDir, arts, s.Capsule.Capabilities.ShellAllow())
	if err != nil {
		return err
	}
	s.shellTools = shells
	acc, err := os.OpenRoot(s.AccessibleDir)
	if err != nil {
		return ioError(fmt.Sprintf("failed to open workdir %s: %v", s.AccessibleDir, err), err)
	}
	defer acc.Close()
	if err := s.placeGrants(made, acc, root); err != nil {
		return err
	}
	if s.Capsule.IsAgent() {
		s.murmurMDPath = filepath.Join(s.SessionDir, MurmurMD)
		if err := s.WriteMurmurMD(""); err != nil {
			s.Notes = append(s.Notes, "failed to write MURMUR.md: "+err.Error())
		}
	}
	if s.UserWorkdir {
		s.copyManifest(made, acc)
	}
	return s.writeTask(made, acc, opts.Task)
}

// makeSessionDir creates the session dir: by path beside murmur.yaml, or
// as .murmur/<id> inside the --workdir through a Root, refusing links.
func (s *Staged) makeSessionDir(made *created) error {
	if !s.UserWorkdir {
		return made.mkdirAll(s.SessionDir)
	}
	acc, err := os.OpenRoot(s.AccessibleDir)
	if err != nil {
		return err
	}
	defer acc.Close()
	rel := filepath.Join(".murmur", s.ID)
	if err := noLinks(acc, rel); err != nil {
		return err
	}
	if err := made.mkdirIn(acc, rel); err != nil {
		return err
	}
	return noLinks(acc, rel)
}
