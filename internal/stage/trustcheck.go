package stage

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
)

// checkTrusted refuses, before anything is created, a layout d that would
// hand a trusted path (trustedPaths) to something that could read or change
// it (E-CAP-002: the workdir is the capsule's filesystem grant):
//
//   - a WASM preopen (the accessible workdir, the session dir an on-stage
//     hook may get, a filesystem.scope) that is a trusted path or lies
//     inside one. Below a preopen, trusted paths are hidden by name
//     (HiddenUnder), but nothing can hide the preopen itself;
//   - when the capsule starts native subprocesses, an accessible workdir
//     holding a trusted path or inside one. Their sandbox grants the
//     workdir whole at every class: Landlock cannot except a sub-path, a
//     mount can mask only what exists (a .env or murmur.lock a command
//     creates is believed next time), and where the host applies no
//     Landlock there is no sandbox at all;
//   - then, a host directory they may read holding a secret
//     (checkReadGrants).
func (s *Staged) checkTrusted(d dirs) error {
	preopens := []struct{ dir, what string }{{d.accessible, "workdir"}, {d.session, "session directory"}}
	for _, a := range s.Artifacts {
		if a.Kind != KindWasm || a.Grants.Scope == "" {
			continue
		}
		// A hook's scope may lie in either workdir (an unbound one's is
		// in the session workdir at on-stage, in the accessible one after).
		what := fmt.Sprintf("filesystem scope '%s' of artifact '%s'", a.Grants.Scope, a.Name)
		for _, base := range []string{d.accessible, d.session} {
			preopens = append(preopens, struct{ dir, what string }{filepath.Join(base, filepath.FromSlash(a.Grants.Scope)), what})
		}
	}
	for _, p := range preopens {
		if err := s.checkNotInside(p.dir, p.what); err != nil {
			return err
		}
	}
	starts := s.subprocessReasons()
	if starts == "" {
		return nil
	}
	if err := s.checkReadGrants(); err != nil {
		return err
	}
	held := s.heldIn(d.accessible)
	if len(held) == 0 {
		return nil
	}
	return &diag.Error{Code: CodeScope,
		Msg: fmt.Sprintf("workdir %s cannot be granted to this capsule: it holds what the runtime trusts at the next run: %s; the capsule starts native subprocesses (%s), whose sandbox grants the whole workdir, so a command could read .env or rewrite the manifest the next run trusts",
			d.accessible, strings.Join(held, ", "), starts),
		Hint: "keep murmur.yaml, murmur.lock and .env outside the workdir: run from a directory of its own with `mur run --manifest ../capsule/murmur.yaml --workdir .`, or leave out --workdir for a fresh workdir/<session id> beside murmur.yaml"}
}

// checkReadGrants refuses a host directory every subprocess may read
// (an interpreter_runtime or staged_runtime grant, the system directories
// a native tool runs programs from under an advisory floor) that holds a
// secret the runtime trusts: .env would be as readable as the
// interpreter.
func (s *Staged) checkReadGrants() error {
	var grants []readGrant
	if s.nativeSystemExec() {
		for _, d := range sandbox.SystemDirs() {
			grants = append(grants, readGrant{d, "system directory (a native tool runs programs from it under the advisory floor)", true})
		}
	}
	if caps := s.Capsule.Capabilities; caps != nil && caps.Shell != nil {
		for _, g := range caps.Shell.InterpreterRuntime {
			for _, d := range g.Dirs {
				grants = append(grants, readGrant{dir: d.Path, what: "capabilities.shell.interpreter_runtime directory"})
			}
		}
		for _, g := range caps.Shell.StagedRuntime {
			grants = append(grants, readGrant{dir: g.SourcePath, what: "capabilities.shell.staged_runtime source_path"})
		}
	}
	for _, g := range grants {
		for _, t := range s.trusted {
			if _, in := beneath(g.dir, t.Path); in && t.Secret {
				hint := "grant the interpreter's own directory (for example /usr/lib/python3), never one holding the project or your home"
				if g.system {
					hint = "keep the project and ~/.murmur out of the system directories, or declare capabilities.containment: scoped, under which a native tool runs no program but the shell.allow ones"
				}
				return &diag.Error{Code: CodeScope,
					Msg: fmt.Sprintf("%s %s holds %s (%s), which every subprocess of the capsule could then read",
						g.what, g.dir, t.What, t.Path),
					Hint: hint}
			}
		}
	}
	return nil
}

// readGrant is a host directory subprocesses may read; system marks the
// system directories of an advisory native tool.
type readGrant struct {
	dir, what string
	system    bool
}

// nativeSystemExec reports whether a native tool of the capsule runs
// with the system directories executable (Subprocesses.ToolScope).
func (s *Staged) nativeSystemExec() bool {
	if s.Containment.Declared != policy.Advisory {
		return false
	}
	for _, a := range s.Artifacts {
		if a.Kind == KindNative {
			return true
		}
	}
	return false
}

// heldIn names the trusted paths that are dir or lie below it.
func (s *Staged) heldIn(dir string) []string {
	var held []string
	at := anchorAt(dir)
	for _, t := range s.trusted {
		if _, in := at.holds(t.Path); in {
			held = append(held, fmt.Sprintf("%s (%s)", t.What, relTo(dir, t.Path)))
		}
	}
	return held
}

// checkNotInside refuses dir, a directory some guest or subprocess gets,
// when it is a trusted path or lies inside one.
func (s *Staged) checkNotInside(dir, what string) error {
	for _, t := range s.trusted {
		if _, in := beneath(t.Path, dir); in {
			return &diag.Error{Code: CodeScope,
				Msg: fmt.Sprintf("%s %s is or lies inside %s (%s), which the runtime trusts at the next run: a guest or subprocess granted it could change it",
					what, dir, t.What, t.Path),
				Hint: fmt.Sprintf("choose a directory outside %s", t.Path)}
		}
	}
	return nil
}

// subprocessReasons says what lets the capsule start native subprocesses
// (shell.allow, spawn.allow, a native tool, transport: process, a local
// MCP server), "" when nothing does.
func (s *Staged) subprocessReasons() string {
	var why []string
	caps := s.Capsule.Capabilities
	if l := caps.ShellAllow(); len(l) > 0 {
		why = append(why, "shell.allow: "+strings.Join(l, ", "))
	}
	if l := caps.SpawnAllow(); len(l) > 0 {
		why = append(why, "spawn.allow: "+strings.Join(l, ", "))
	}
	for _, a := range s.Artifacts {
		if a.Kind == KindNative {
			why = append(why, "native tool '"+a.Name+"'")
		}
	}
	if inf := s.Capsule.Inference; inf != nil && inf.Transport == "process" {
		why = append(why, "transport: process runs "+inf.Command)
	}
	if m := s.Capsule.MCP; m != nil {
		for _, sv := range m.Servers {
			if sv.Local() {
				why = append(why, "mcp server '"+sv.Name+"' runs "+sv.Command)
			}
		}
	}
	return strings.Join(why, "; ")
}

// relTo names p for a message about dir: relative when it lies below.
func relTo(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}
