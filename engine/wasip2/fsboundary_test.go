package wasip2_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// attack runs the fsattack guest's ";"-separated commands under g and
// returns one output line per command.
func attack(t *testing.T, g wasip2.Grants, cmds ...string) ([]string, error) {
	t.Helper()
	var out strings.Builder
	g.Stdout.W = &out
	inst, _ := instantiate(t, testguest.FSAttackGo, g, component.Limits{})
	f, err := inst.Func(runExport)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Call(context.Background(), []any{wit.Some(strings.Join(cmds, " ; ")), wit.None()})
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), err
}

// expect runs cases (command → wanted line) in one guest call.
func expect(t *testing.T, g wasip2.Grants, cases [][2]string) {
	t.Helper()
	cmds := make([]string, len(cases))
	for i, c := range cases {
		cmds[i] = c[0]
	}
	got, err := attack(t, g, cmds...)
	if err != nil {
		t.Fatalf("guest call: %v", err)
	}
	if len(got) != len(cases) {
		t.Fatalf("got %d lines for %d commands:\n%s", len(got), len(cases), strings.Join(got, "\n"))
	}
	for i, c := range cases {
		if got[i] != c[1] {
			t.Errorf("%s: got %s, want %s", c[0], got[i], c[1])
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// tree snapshots everything under dir (names, modes, link targets,
// contents), so a test can prove a hostile guest changed nothing there.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.Mode().String())
		if fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			b.WriteString(" -> " + target)
		} else if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			b.WriteString(" " + string(data) + " " + fi.ModTime().String())
		}
		b.WriteString("\n")
		return nil
	})
	must(t, err)
	return b.String()
}

// TestHiddenEntriesUnreachable: the names in DirGrant.Hide are absent
// from the root's listing, and every operation on them, however the path
// is spelled and through whatever symlink, fails as if they did not exist
// (access when it would create one).
func TestHiddenEntriesUnreachable(t *testing.T) {
	work := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(work, "tools"), 0o755))
	must(t, os.MkdirAll(filepath.Join(work, ".murmur"), 0o755))
	must(t, os.MkdirAll(filepath.Join(work, "sub", "tools"), 0o755))
	must(t, os.WriteFile(filepath.Join(work, "tools", "run.wasm"), []byte("trusted"), 0o644))
	must(t, os.WriteFile(filepath.Join(work, ".murmur", "state"), []byte("state"), 0o644))
	must(t, os.WriteFile(filepath.Join(work, "trace.jsonl"), []byte("{}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(work, "file"), []byte("mine"), 0o644))
	// Links the host (not the guest) left in the workdir, leading back up.
	must(t, os.Symlink("../tools", filepath.Join(work, "sub", "up")))
	must(t, os.Symlink("..", filepath.Join(work, "sub", "root")))
	must(t, os.Symlink("trace.jsonl", filepath.Join(work, "tracelink")))
	hidden := func() string {
		return tree(t, filepath.Join(work, "tools")) + tree(t, filepath.Join(work, ".murmur")) + tree(t, filepath.Join(work, "trace.jsonl"))
	}
	before := hidden()
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: work, Guest: "/work", Hide: []string{"tools", "trace.jsonl", ".murmur"}}}}

	const noent, acces = "errno=ENOENT", "errno=EACCES"
	cases := [][2]string{
		{"ls .", "entries=file,sub,tracelink"},
		{"ls ./", "entries=file,sub,tracelink"},
		{"ls sub/..", "entries=file,sub,tracelink"},
		{"ls sub/root", "entries=file,sub,tracelink"},
		{"ls sub", "entries=root,tools,up"},
	}
	spellings := []string{
		"tools", "./tools", "tools/", "tools//", "tools/.", "sub/../tools", "./sub/./../tools/", "TOOLS",
		"sub/root/tools", "sub/up", "tools/run.wasm", "sub/../tools/run.wasm", "sub/up/run.wasm", "sub/root/tools/run.wasm",
		"trace.jsonl", "./trace.jsonl", "tracelink", "sub/root/trace.jsonl", ".murmur", ".murmur/state", "sub/root/.murmur/state",
	}
	// Each op is a command with P standing for the path.
	for _, p := range spellings {
		ops := []string{"open P", "read P", "stat P", "utimes P", "ls P", "mkdir P/new"}
		// A link is not hidden itself, only what it leads to; moving one
		// is checked as a link (below).
		if p != "sub/up" && p != "tracelink" {
			ops = append(ops, "lstat P", "readlink P", "unlink P", "rmdir P", "open P nofollow", "rename P moved", "link P linked")
		}
		for _, op := range ops {
			cases = append(cases, [2]string{strings.ReplaceAll(op, "P", p), noent})
		}
	}
	for _, p := range []string{"tools", "./tools", "tools/", "TRACE.JSONL", "sub/../.murmur", "sub/root/tools"} {
		cases = append(cases,
			[2]string{"mkdir " + p, acces},
			[2]string{"open " + p + " create", acces},
			[2]string{"rename file " + p, acces},
			[2]string{"link file " + p, acces},
			[2]string{"symlink file " + p, acces},
		)
	}
	cases = append(cases,
		[2]string{"open tools/new create", noent},
		[2]string{"rename file tools/x", noent},
		[2]string{"symlink tools ln", noent},
		[2]string{"symlink tools/run.wasm ln", noent},
		[2]string{"symlink .murmur/state sub/root/ln", noent},
		[2]string{"symlink tools sub/ln", "ok"}, // names sub/tools
		[2]string{"stat sub/ln", "ok"},
		[2]string{"rename sub/ln ln", noent},
		[2]string{"link sub/ln ln", noent},
		[2]string{"rename sub/up moved", "errno=EPERM"}, // "../tools" may not move
		[2]string{"link sub/up linked", "errno=EPERM"},
		[2]string{"rename tracelink moved", noent}, // still at the root, still leads to trace.jsonl
		[2]string{"link tracelink linked", noent},
		[2]string{"lstat sub/up", "ok"},
		[2]string{"readlink sub/up", "link=../tools"},
		[2]string{"read file", "content=mine"},
		[2]string{"stat sub/tools", "ok"},
	)
	expect(t, g, cases)
	if after := hidden(); after != before {
		t.Errorf("hidden entries changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	for _, name := range []string{"TOOLS", "moved", "linked", "ln", "new"} {
		if _, err := os.Lstat(filepath.Join(work, name)); err == nil {
			t.Errorf("%s was created at the root", name)
		}
	}
}

// escapingLinks lists every symlink under dir that resolves (or, if
// dangling, would resolve) outside it: what host code walking the
// directory later would be led to.
func escapingLinks(t *testing.T, dir string) []string {
	t.Helper()
	var bad []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return nil
		}
		target, _ := os.Readlink(p)
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		if resolved, err := filepath.EvalSymlinks(target); err == nil {
			target = resolved
		}
		if rel, err := filepath.Rel(dir, target); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			bad = append(bad, p+" -> "+target)
		}
		return nil
	})
	return bad
}

// TestGuestSymlinksStayInside: the three ways a guest could leave a
// symlink pointing outside its preopen (a relative link moved to a
// shallower directory, a link made under a symlinked directory, an
// escaping link hard-linked elsewhere) are refused, and afterwards no link
// in the directory leads outside.
func TestGuestSymlinksStayInside(t *testing.T) {
	tmp := t.TempDir()
	work := filepath.Join(tmp, "work")
	must(t, os.MkdirAll(filepath.Join(work, "a"), 0o755))
	must(t, os.WriteFile(filepath.Join(tmp, "secret"), []byte("outside"), 0o644))
	must(t, os.WriteFile(filepath.Join(work, "file"), []byte("mine"), 0o644))
	// In scope where the host left them: a/x -> ../file is work/file.
	must(t, os.Symlink("../file", filepath.Join(work, "a", "renamable")))
	must(t, os.Symlink("../secret", filepath.Join(work, "a", "linkable")))
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: work, Guest: "/work"}}}
	const perm = "errno=EPERM"
	expect(t, g, [][2]string{
		// 1. a relative link, in scope in a/, renamed to the root.
		{"symlink ../secret a/mine", perm},
		{"rename a/mine mine", "errno=ENOENT"},
		{"rename a/renamable moved", perm},
		{"rename a/renamable a/still-here", perm},
		// 2. a link made under a directory symlink that points up.
		{"symlink .. a/up", perm},
		{"symlink ../secret a/up/deep", perm},
		{"symlink . a/dot", perm},
		{"symlink a/ a/trailing", perm},
		// 3. an escaping link hard-linked to where it escapes.
		{"link a/linkable hard", perm},
		{"link a/renamable hard2", perm},
		// What remains allowed: links of names only, and moving them.
		{"symlink file ok", "ok"},
		{"symlink ../file a/nope", perm},
		{"symlink file a/dangling", "ok"},
		{"rename ok a/ok", "ok"},
		{"link a/ok ok2", "ok"},
		{"read ok2", "content=mine"},
		{"read a/ok", "errno=ENOENT"}, // a/file does not exist: the link means a/file now
	})
	if bad := escapingLinks(t, work); len(bad) > 0 {
		// The host's own a/linkable escapes; only the guest's must not.
		var guests []string
		for _, b := range bad {
			if !strings.Contains(b, "/a/linkable ->") {
				guests = append(guests, b)
			}
		}
		if len(guests) > 0 {
			t.Errorf("links leading outside the preopen:\n%s", strings.Join(guests, "\n"))
		}
	}
}
