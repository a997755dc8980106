package sandbox

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/policy"
)

// libDirs are searched for a DT_NEEDED name after the object's own
// DT_RPATH/DT_RUNPATH (security.md §9.2).
func libDirs() []string {
	return []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
		"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"}
}

// ExecClosure is what executing path needs to read and map: the file
// itself (canonical), a #! script's interpreter (one `env NAME` level
// resolved on pathEnv), and for ELF files the PT_INTERP loader and the
// transitive DT_NEEDED closure. Every step shrinks rather than fails: a
// missing file, a non-ELF or an unresolved name contributes nothing, so
// the grant is never wider than what was found.
func ExecClosure(path, pathEnv string) []string {
	seen := map[string]bool{}
	var out []string
	var visit func(p string, depth int)
	visit = func(p string, depth int) {
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] || depth > 64 {
			return
		}
		seen[real] = true
		out = append(out, real)
		if interp := shebang(real, pathEnv); interp != "" && depth == 0 {
			visit(interp, depth+1)
			return
		}
		f, err := elf.Open(real)
		if err != nil {
			return
		}
		defer f.Close()
		for _, prog := range f.Progs {
			if prog.Type != elf.PT_INTERP {
				continue
			}
			b := make([]byte, prog.Filesz)
			if _, err := prog.ReadAt(b, 0); err == nil {
				visit(string(bytes.TrimRight(b, "\x00")), depth+1)
			}
		}
		libs, _ := f.ImportedLibraries()
		var search []string
		for _, tag := range []elf.DynTag{elf.DT_RPATH, elf.DT_RUNPATH} {
			vals, _ := f.DynString(tag)
			for _, v := range vals {
				for _, d := range strings.Split(v, ":") {
					search = append(search, strings.ReplaceAll(strings.ReplaceAll(d, "${ORIGIN}", filepath.Dir(real)), "$ORIGIN", filepath.Dir(real)))
				}
			}
		}
		search = append(search, libDirs()...)
		for _, lib := range libs {
			for _, d := range search {
				if cand := filepath.Join(d, lib); fileExists(cand) {
					visit(cand, depth+1)
					break
				}
			}
		}
	}
	visit(path, 0)
	return out
}

// shebang returns the interpreter a #! file names ("" if it is not one);
// `#!/usr/bin/env NAME` resolves NAME on pathEnv, else the grant is env's.
func shebang(path, pathEnv string) string {
	sb, ok := policy.ReadShebang(path, pathEnv)
	switch {
	case !ok:
		return ""
	case sb.EnvPath != "":
		return sb.EnvPath
	}
	return sb.Interp
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
