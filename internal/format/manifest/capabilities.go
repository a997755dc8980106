package manifest

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

var (
	capabilityKeys = []string{"network", "filesystem", "shell", "spawn", "env", "limits", "resources", "containment"}
	limitKeys      = []string{"memory_bytes", "table_elements", "instances", "deadline_seconds"}
	resourceKeys   = []string{"max_processes", "max_open_files", "max_file_size_bytes", "cpu_seconds", "memory_bytes",
		"cgroup_memory_bytes", "cgroup_pids_max", "cgroup_cpu_percent", "cgroup_io_bytes_per_sec", "workdir_max_bytes"}
	containmentClasses = []string{"advisory", "scoped", "sealed"}
)

// Capabilities is a `capabilities:` block, capsule-wide (the ceiling) or
// per artifact. A nil sub-block pointer means the sub-block was absent,
// which matters: per-artifact `network` absent inherits the ceiling while
// `network: {allow: []}` means no network.
type Capabilities struct {
	Network    *NetworkCaps
	Filesystem *FilesystemCaps
	Shell      *ShellCaps
	// Spawn and Env are the allow lists of spawn: and env:; nil = absent.
	Spawn       *AllowList
	Env         *AllowList
	Limits      *Limits
	Resources   *Resources
	Containment string // "" = undeclared
	Pos         Pos
}

// NetworkCaps is capabilities.network.
type NetworkCaps struct {
	// Allow holds the rules as written; policy.NetworkRules parses them.
	Allow       []string
	AllowPos    []Pos
	UnixSockets bool
	Pos         Pos
}

// FilesystemCaps is capabilities.filesystem.
type FilesystemCaps struct {
	Scope       string // trimmed; "" = whole workdir
	ScopePos    Pos
	WorkdirExec bool
}

// ShellCaps is capabilities.shell.
type ShellCaps struct {
	Allow              []string
	StripEnv           []string // nil = undeclared
	BaselineEnv        []string // nil = undeclared
	InterpreterRuntime []InterpreterRuntime
	StagedRuntime      []StagedRuntime
}

// InterpreterRuntime widens an allowed binary's filesystem view to host dirs.
type InterpreterRuntime struct {
	Binary string
	Dirs   []InterpreterDir
}

// InterpreterDir is one host directory of an interpreter_runtime grant.
type InterpreterDir struct {
	Path    string
	ListDir bool
}

// StagedRuntime binds a pinned runtime tree into the sealed root.
type StagedRuntime struct {
	Binary, SourcePath, Pin string
}

// AllowList is a sub-block whose only key is `allow:`.
type AllowList struct{ Allow []string }

// Limits is capabilities.limits as declared (nil = absent).
type Limits struct {
	MemoryBytes, TableElements, Instances, DeadlineSeconds *uint64
}

// Resources is capabilities.resources as declared (nil = absent).
type Resources struct {
	MaxProcesses, MaxOpenFiles, MaxFileSizeBytes, CPUSeconds, MemoryBytes   *uint64
	CgroupMemoryBytes, CgroupPidsMax, CgroupCPUPercent, CgroupIOBytesPerSec *uint64
	WorkdirMaxBytes                                                         *uint64
}

// NetworkAllow is network.allow as written (nil-safe; empty = nothing).
func (c *Capabilities) NetworkAllow() []string {
	if c == nil || c.Network == nil {
		return nil
	}
	return c.Network.Allow
}

// EnvAllow is env.allow (nil-safe).
func (c *Capabilities) EnvAllow() []string {
	if c == nil || c.Env == nil {
		return nil
	}
	return c.Env.Allow
}

// ShellAllow is shell.allow (nil-safe).
func (c *Capabilities) ShellAllow() []string {
	if c == nil || c.Shell == nil {
		return nil
	}
	return c.Shell.Allow
}

// SpawnAllow is spawn.allow (nil-safe).
func (c *Capabilities) SpawnAllow() []string {
	if c == nil || c.Spawn == nil {
		return nil
	}
	return c.Spawn.Allow
}

// Scope is filesystem.scope ("" = whole workdir; nil-safe).
func (c *Capabilities) Scope() string {
	if c == nil || c.Filesystem == nil {
		return ""
	}
	return c.Filesystem.Scope
}

// WorkdirExec is filesystem.workdir_exec (nil-safe).
func (c *Capabilities) WorkdirExec() bool {
	return c != nil && c.Filesystem != nil && c.Filesystem.WorkdirExec
}

// InertSubBlocks lists the sub-blocks a per-artifact block declares that
// no per-artifact grant reads (only network and filesystem are).
func (c *Capabilities) InertSubBlocks() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, b := range []struct {
		name string
		set  bool
	}{{"shell", c.Shell != nil}, {"spawn", c.Spawn != nil}, {"env", c.Env != nil}, {"limits", c.Limits != nil},
		{"resources", c.Resources != nil}, {"containment", c.Containment != ""}} {
		if b.set {
			out = append(out, b.name)
		}
	}
	return out
}

// capabilities decodes a capabilities block at path. Errors use Murmur's
// "invalid capability config for '<field>'" text; all are collected.
func (d *decoder) capabilities(f field, ok bool, path string) *Capabilities {
	o := d.optMap(f, ok, path, capabilityKeys)
	if o == nil {
		return nil
	}
	c := &Capabilities{Pos: nodePos(f.k)}
	capErr := func(at *yaml.Node, sub, hint, format string, args ...any) {
		p := join(path, sub)
		d.fail(CodeInvalid, p, at, hint, "invalid capability config for '%s': %s", p, fmt.Sprintf(format, args...))
	}

	if sf, sok := o.get("network"); sok {
		if no := d.optMap(sf, sok, join(path, "network"), []string{"allow", "unix_sockets"}); no != nil {
			nc := &NetworkCaps{Pos: nodePos(sf.k)}
			af, aok := no.get("allow")
			var nodes []*yaml.Node
			nc.Allow, nodes, _ = d.stringList(af, aok, join(path, "network.allow"), true)
			for _, n := range nodes {
				nc.AllowPos = append(nc.AllowPos, nodePos(n))
			}
			uf, uok := no.get("unix_sockets")
			nc.UnixSockets = d.plainBool(uf, uok, join(path, "network.unix_sockets"))
			c.Network = nc
		}
	}
	if sf, sok := o.get("filesystem"); sok {
		if fo := d.optMap(sf, sok, join(path, "filesystem"), []string{"scope", "workdir_exec"}); fo != nil {
			fc := &FilesystemCaps{}
			scf, scok := fo.get("scope")
			s, _ := d.looseString(scf, scok, join(path, "filesystem.scope"))
			fc.Scope = strings.TrimSpace(s)
			if scok {
				fc.ScopePos = nodePos(scf.v)
			}
			wf, wok := fo.get("workdir_exec")
			fc.WorkdirExec = d.plainBool(wf, wok, join(path, "filesystem.workdir_exec"))
			c.Filesystem = fc
		}
	}
	if sf, sok := o.get("shell"); sok {
		c.Shell = d.shell(sf, path, capErr)
	}
	for _, key := range []string{"spawn", "env"} {
		sf, sok := o.get(key)
		if so := d.optMap(sf, sok, join(path, key), []string{"allow"}); so != nil {
			af, aok := so.get("allow")
			l, _, _ := d.stringList(af, aok, join(path, key+".allow"), true)
			if key == "spawn" {
				c.Spawn = &AllowList{Allow: l}
			} else {
				c.Env = &AllowList{Allow: l}
			}
		}
	}
	if sf, sok := o.get("limits"); sok {
		if lo := d.optMap(sf, sok, join(path, "limits"), limitKeys); lo != nil {
			l := &Limits{}
			dst := []**uint64{&l.MemoryBytes, &l.TableElements, &l.Instances, &l.DeadlineSeconds}
			for i, k := range limitKeys {
				d.positive(lo, k, join(path, "limits"), 64, dst[i], capErr)
			}
			c.Limits = l
		}
	}
	if sf, sok := o.get("resources"); sok {
		if ro := d.optMap(sf, sok, join(path, "resources"), resourceKeys); ro != nil {
			r := &Resources{}
			dst := []**uint64{&r.MaxProcesses, &r.MaxOpenFiles, &r.MaxFileSizeBytes, &r.CPUSeconds, &r.MemoryBytes,
				&r.CgroupMemoryBytes, &r.CgroupPidsMax, &r.CgroupCPUPercent, &r.CgroupIOBytesPerSec, &r.WorkdirMaxBytes}
			for i, k := range resourceKeys {
				bits := 64
				if k == "cgroup_cpu_percent" {
					bits = 32
				}
				d.positive(ro, k, join(path, "resources"), bits, dst[i], capErr)
			}
			c.Resources = r
		}
	}
	if cf, cok := o.get("containment"); cok {
		v, _ := d.looseString(cf, cok, join(path, "containment"))
		if v = strings.TrimSpace(v); v != "" {
			if !contains(containmentClasses, v) {
				hint := "declare the minimum enforcement you need: advisory, scoped or sealed"
				if s := suggest(v, containmentClasses); s != "" {
					hint = fmt.Sprintf("did you mean '%s'?", s)
				}
				capErr(cf.v, "containment", hint, "must be one of: advisory, scoped, sealed; got '%s'", v)
			} else {
				c.Containment = v
			}
		}
	}
	return c
}

// positive reads an optional unsigned field that must not be zero.
func (d *decoder) positive(o *obj, key, base string, bits int, dst **uint64, capErr func(*yaml.Node, string, string, string, ...any)) {
	f, ok := o.get(key)
	v, good := d.optUint(f, ok, join(base, key), bits)
	if !good || v == nil {
		return
	}
	if *v == 0 {
		sub := base[strings.LastIndexByte(base, '.')+1:] + "." + key
		capErr(f.v, sub, "remove the key to use the default, or give a positive value", "must be greater than zero")
		return
	}
	*dst = v
}

func (d *decoder) shell(f field, path string, capErr func(*yaml.Node, string, string, string, ...any)) *ShellCaps {
	sp := join(path, "shell")
	o := d.optMap(f, true, sp, []string{"allow", "strip_env", "baseline_env", "interpreter_runtime", "staged_runtime"})
	if o == nil {
		return nil
	}
	s := &ShellCaps{}
	af, aok := o.get("allow")
	s.Allow, _, _ = d.stringList(af, aok, sp+".allow", true)
	if len(s.Allow) == 0 {
		at := f.k
		if aok {
			at = af.v
		}
		capErr(at, "shell.allow", "list the binaries the capsule may run, e.g. allow: [bash], or remove the shell block",
			"must contain at least one binary")
	}
	ef, eok := o.get("strip_env")
	s.StripEnv, _, _ = d.stringList(ef, eok, sp+".strip_env", false)
	ef, eok = o.get("baseline_env")
	s.BaselineEnv, _, _ = d.stringList(ef, eok, sp+".baseline_env", false)

	irf, irok := o.get("interpreter_runtime")
	items, _ := d.seq(irf, irok, sp+".interpreter_runtime", "a sequence of grants")
	for i, it := range items {
		base := fmt.Sprintf("shell.interpreter_runtime[%d]", i)
		if kindOf(it) != kindMapping {
			d.typeError(join(path, base), it, "a mapping")
			continue
		}
		go_ := d.object(it, join(path, base), []string{"binary", "dirs"})
		bf, bok := go_.get("binary")
		bin, _ := d.looseString(bf, bok, join(path, base+".binary"))
		g := InterpreterRuntime{Binary: bin}
		at := it
		if bok {
			at = bf.v
		}
		if strings.TrimSpace(bin) == "" {
			capErr(at, base+".binary", "name the allowed binary this grant is for", "must name a binary")
			continue
		}
		if !contains(s.Allow, bin) {
			capErr(at, base+".binary", fmt.Sprintf("add '%s' to capabilities.shell.allow first", bin),
				"'%s' is not in capabilities.shell.allow — an interpreter_runtime grant only widens what an allowed binary can read; it never allows running one", bin)
			continue
		}
		df, dok := go_.get("dirs")
		dirs, _ := d.seq(df, dok, join(path, base+".dirs"), "a sequence of directories")
		if len(dirs) == 0 {
			at := it
			if dok {
				at = df.v
			}
			capErr(at, base+".dirs", "list at least one host directory, e.g. dirs: [{path: /usr/lib/node_modules, list_dir: true}]",
				"must name at least one directory")
			continue
		}
		for j, dn := range dirs {
			db := fmt.Sprintf("%s.dirs[%d]", base, j)
			if kindOf(dn) != kindMapping {
				d.typeError(join(path, db), dn, "a mapping")
				continue
			}
			do := d.object(dn, join(path, db), []string{"path", "list_dir"})
			pf, pok := do.get("path")
			p, _ := d.looseString(pf, pok, join(path, db+".path"))
			pat := dn
			if pok {
				pat = pf.v
			}
			if strings.TrimSpace(p) == "" {
				capErr(pat, db+".path", "give an absolute host path, e.g. /usr/lib/python3", "must name a host directory")
				continue
			}
			if !strings.HasPrefix(p, "/") {
				capErr(pat, db+".path", "write the full path starting with '/'",
					"'%s' must be an absolute host path (start with '/') — interpreter_runtime directories live on the host, outside the workdir", p)
				continue
			}
			lf, lok := do.get("list_dir")
			lb, _ := d.optBool(lf, lok, join(path, db+".list_dir"))
			if lb == nil {
				capErr(dn, db+".list_dir", "add `list_dir: true` or `list_dir: false`",
					"'%s' must set list_dir explicitly to true or false — whether a directory may be listed is never assumed", p)
				continue
			}
			g.Dirs = append(g.Dirs, InterpreterDir{Path: p, ListDir: *lb})
		}
		s.InterpreterRuntime = append(s.InterpreterRuntime, g)
	}

	srf, srok := o.get("staged_runtime")
	items, _ = d.seq(srf, srok, sp+".staged_runtime", "a sequence of grants")
	for i, it := range items {
		base := fmt.Sprintf("shell.staged_runtime[%d]", i)
		if kindOf(it) != kindMapping {
			d.typeError(join(path, base), it, "a mapping")
			continue
		}
		so := d.object(it, join(path, base), []string{"binary", "source_path", "pin"})
		bf, bok := so.get("binary")
		bin, _ := d.looseString(bf, bok, join(path, base+".binary"))
		at := it
		if bok {
			at = bf.v
		}
		if strings.TrimSpace(bin) == "" {
			capErr(at, base+".binary", "name the allowed binary whose runtime tree is staged", "must name a binary")
			continue
		}
		if !contains(s.Allow, bin) {
			capErr(at, base+".binary", fmt.Sprintf("add '%s' to capabilities.shell.allow first", bin),
				"'%s' is not in capabilities.shell.allow — staged_runtime only stages the runtime tree of an allowed binary; it never allows running one", bin)
			continue
		}
		dup := false
		for _, g := range s.InterpreterRuntime {
			dup = dup || g.Binary == bin
		}
		if dup {
			capErr(at, base+".binary", fmt.Sprintf("remove the interpreter_runtime grant for '%s'", bin),
				"'%s' also has a capabilities.shell.interpreter_runtime grant — a binary takes one or the other: staged_runtime mounts the runtime tree inside the sealed root, so widening the host view as well is never needed", bin)
			continue
		}
		pf, pok := so.get("source_path")
		src, _ := d.looseString(pf, pok, join(path, base+".source_path"))
		pat := it
		if pok {
			pat = pf.v
		}
		if strings.TrimSpace(src) == "" {
			capErr(pat, base+".source_path", "give the absolute host path of the runtime tree, e.g. /opt/envs/py311",
				"must name the host directory holding the pinned runtime tree")
			continue
		}
		if !strings.HasPrefix(src, "/") {
			capErr(pat, base+".source_path", "write the full path starting with '/'",
				"'%s' must be an absolute host path (start with '/') — a staged runtime tree lives on the host, outside the workdir", src)
			continue
		}
		nf, nok := so.get("pin")
		pin, _ := d.looseString(nf, nok, join(path, base+".pin"))
		if pin = strings.TrimSpace(pin); pin == "" {
			nat := it
			if nok {
				nat = nf.v
			}
			capErr(nat, base+".pin", "add e.g. `pin: cpython-3.11.9/2024-06-01`",
				"'%s' must declare a non-empty pin naming the exact build of the tree — it is what operators compare to know two hosts run the same runtime", src)
			continue
		}
		s.StagedRuntime = append(s.StagedRuntime, StagedRuntime{Binary: bin, SourcePath: src, Pin: pin})
	}
	return s
}
