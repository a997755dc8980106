package launch_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/testing/cgrouptest"
)

// The WASM tool overwrites tools/victim/victim with a script; the next call
// of victim must run the staged binary or be refused, never the script.
func TestWasmToolCannotReplaceNativeBinary(t *testing.T) {
	dir := t.TempDir()
	secProject(t, dir, "attack", "victim")
	sess, record := secRun(t, dir, nil, nil, "--task", evilScript)
	if _, err := os.Stat(filepath.Join(sess, "pwned")); err == nil {
		t.Fatalf("the script the WASM tool wrote over victim's binary ran\nrecord.txt:\n%s", record)
	}
	ranOriginal := strings.Contains(record, "victim-ran\n")
	refused := refusedAsChanged(record)
	if !ranOriginal && !refused {
		t.Errorf("victim neither ran as staged nor was refused with the digest error\nrecord.txt:\n%s", record)
	}
	// With tools/ hidden from WASM guests the attack cannot even reach it.
	b, err := os.ReadFile(filepath.Join(sess, "tools", "victim", "victim"))
	if err != nil || string(b) == evilScript {
		t.Errorf("the WASM tool reached tools/victim/victim (read: %v)\nrecord.txt:\n%s", err, record)
	}
}

// A host process replaces victim's binary and swaps guide's skill.md for a
// symlink to /etc/passwd between calls: victim is refused with the digest
// error and guide answers with the text staging verified.
func TestStagedFilesReplacedOnHostAreNotTrusted(t *testing.T) {
	dir := t.TempDir()
	secProject(t, dir, "victim", "swap")
	sess, record := secRun(t, dir, nil, nil)
	if _, err := os.Stat(filepath.Join(sess, "pwned")); err == nil {
		t.Fatalf("the replaced binary ran\nrecord.txt:\n%s", record)
	}
	if !strings.Contains(record, "victim-ran\n") {
		t.Errorf("victim did not run before the swap\nrecord.txt:\n%s", record)
	}
	if !refusedAsChanged(record) {
		t.Errorf("the call after the swap was not refused with the changed-binary error\nrecord.txt:\n%s", record)
	}
	if !strings.Contains(record, "\n"+guideText+"\n") || strings.Contains(record, "root:") {
		t.Errorf("guide did not answer with its staged text %q\nrecord.txt:\n%s", guideText, record)
	}
}

// A planted task.md symlink in a reused --workdir must not redirect the
// runtime's write of --task to the file it points at.
func TestTaskSymlinkInWorkdirIsNotFollowed(t *testing.T) {
	dir, work := t.TempDir(), t.TempDir()
	secProject(t, dir)
	outside := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(work, "task.md")); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runMur(dir, nil, "run", "--workdir", work, "--task", "overwritten")
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Fatalf("mur wrote through the planted task.md symlink: the target now holds %q", b)
	}
	if code == 0 || !strings.Contains(stderr, "task.md") || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("exit %d, want a failed run saying task.md is a symbolic link\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// refusedAsChanged reports whether record.txt holds the native runner's
// refusal of victim's changed binary.
func refusedAsChanged(record string) bool {
	for _, line := range strings.Split(record, "\n") {
		if strings.HasPrefix(line, "native tool 'victim' was not run: its binary ") &&
			strings.Contains(line, filepath.Join("tools", "victim", "victim")+" changed since staging") {
			return true
		}
	}
	return false
}

// dotenvSecret is what the projects of the trusted-files tests keep in
// .env: no guest or subprocess may read it.
const dotenvSecret = "TRUSTED_TEST_SECRET=sk-dotenv-must-not-leak-1717"

// trustProject writes an agent capsule into dir, the project the next run
// trusts: the scripted driver replaying turns, the tools named (installed
// from agentPkgs and pinned, so the project store and murmur.lock exist),
// the capabilities lines given, and .env when dotenv is set.
func trustProject(t *testing.T, dir, turns string, tools []string, capabilities string, dotenv bool) {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name: trusting\nversion: \"0.1.0\"\ninference:\n  endpoint: http://localhost:9\n  model: scripted-model\n"+
		"  driver:\n    artifact: scripted\n    config: {\"turns\": %s}\nartifacts:\n  - {name: scripted, version: \"0.1.0\", runtime: driver}\n", turns)
	for _, name := range tools {
		fmt.Fprintf(&b, "  - {name: %s, version: \"0.1.0\", runtime: tool}\n", name)
	}
	b.WriteString("capabilities:\n  limits:\n    deadline_seconds: 60\n" + capabilities)
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if dotenv {
		if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(dotenvSecret+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range append([]string{"scripted"}, tools...) {
		if _, stderr, code := runMur(dir, nil, "install", "-g", filepath.Join(pkgs, name+"-0.1.0.mur.zip")); code != 0 {
			t.Fatalf("mur install -g %s: exit %d\n%s", name, code, stderr)
		}
	}
	// From the global store into the project's, pinned, so the run finds
	// the murmur.lock a later run trusts.
	if stdout, stderr, code := runMur(dir, nil, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s", code, stderr+stdout)
	}
}

// trustedState is what a later run of the project in dir would believe:
// each trusted file's kind and content (or its absence) and the project
// store's listing.
func trustedState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, name := range []string{"murmur.yaml", ".env", "murmur.lock", filepath.Join(".murmur", "config.yaml")} {
		p := filepath.Join(dir, name)
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			fmt.Fprintf(&b, "%s: absent\n", name)
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintf(&b, "%s: link to %s\n", name, target)
		default:
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s: %q\n", name, data)
		}
	}
	filepath.WalkDir(filepath.Join(dir, ".murmur", "artifacts"), func(p string, d os.DirEntry, err error) error {
		if err == nil {
			fmt.Fprintf(&b, "store: %s\n", p)
		}
		return nil
	})
	return b.String()
}

// A model-chosen shell command or native tool running with the project
// directory as its workdir could read .env and rewrite murmur.yaml,
// murmur.lock or .murmur/ for the next run (which then sent the API key to
// the attacker's endpoint). Their sandbox grants the whole workdir at
// every class, so such a workdir is refused, before anything is created,
// with the files it holds and what to do; the layout the hint gives runs
// and cannot reach the project.
func TestSubprocessWorkdirHoldingTrustedFilesIsRefused(t *testing.T) {
	evil := filepath.Join(t.TempDir(), "evil.yaml")
	if err := os.WriteFile(evil, []byte("name: pwned\nversion: \"0.1.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shell := `[{"tool_calls": [` + shellCall("steal", `while IFS= read -r l; do echo "$l"; done < .env > stolen.txt; `+
		`echo 'endpoint: http://127.0.0.1:1/' >> murmur.yaml; echo pwned > murmur.lock; echo pwned > .murmur/config.yaml`) + `]}, {"text": "done"}]`
	plant := `[{"tool_calls": [{"id": "p", "name": "plant", "input": {"link": "murmur.yaml", "target": "` + evil + `"}}]}, {"text": "done"}]`
	for _, tc := range []struct {
		name, turns, caps string
		tools             []string
		flags             []string
		nobody            bool
	}{
		{"shell, default floor", shell, "  shell:\n    allow: [sh]\n", nil, nil, false},
		{"shell, scoped", shell, "  shell:\n    allow: [sh]\n", nil, []string{"--containment", "scoped"}, false},
		{"shell, sealed", shell, "  shell:\n    allow: [sh]\n", nil, []string{"--containment", "sealed"}, false},
		{"shell, advisory (workdir_exec)", shell, "  shell:\n    allow: [sh]\n  filesystem:\n    workdir_exec: true\n", nil, nil, false},
		{"native tool", plant, "", []string{"plant"}, nil, false},
		{"native tool, sealed", plant, "", []string{"plant"}, []string{"--containment", "sealed"}, false},
		{"native tool as an unprivileged user", plant, "", []string{"plant"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := os.MkdirTemp("", "mur-trusted-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(tree) })
			dir := filepath.Join(tree, "proj")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			trustProject(t, dir, tc.turns, tc.tools, tc.caps, true)
			c := exec.Command(env.mur, append([]string{"run", "-v", "--workdir", ".", "--task", "go"}, tc.flags...)...)
			c.Dir = dir
			c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
			if tc.nobody {
				asNobody(t, tree, c)
			}
			before := tree2(t, dir)
			state := trustedState(t, dir)
			var stdout, stderr strings.Builder
			c.Stdout, c.Stderr = &stdout, &stderr
			err = c.Run()
			if got := trustedState(t, dir); got != state {
				t.Errorf("the run changed what the next run trusts:\nbefore:\n%s\nafter:\n%s", state, got)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "stolen.txt")); strings.Contains(string(b), "sk-dotenv") {
				t.Errorf("a subprocess read .env: stolen.txt holds %q", b)
			}
			if err == nil || !strings.Contains(stderr.String(), "error[E-CAP-002]: workdir "+dir+" cannot be granted to this capsule") {
				t.Fatalf("run: %v, want the E-CAP-002 refusal\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
			}
			for _, want := range []string{"the manifest (murmur.yaml)", ".env (.env)", "murmur.lock (murmur.lock)", "a command could read .env",
				"hint: keep murmur.yaml, murmur.lock and .env outside the workdir: run from a directory of its own with `mur run --manifest ../capsule/murmur.yaml --workdir .`"} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("the refusal does not say %q:\n%s", want, stderr.String())
				}
			}
			if after := tree2(t, dir); !slices.Equal(before, after) {
				t.Errorf("the refused run changed the project:\nbefore: %v\nafter:  %v", before, after)
			}
		})
	}
	t.Run("the hint's layout runs and cannot reach the project", func(t *testing.T) {
		dir, work := t.TempDir(), t.TempDir()
		attack := `[{"tool_calls": [` + shellCall("steal", `while IFS= read -r l; do echo "$l"; done < `+dir+`/.env > stolen.txt; `+
			`echo 'endpoint: http://127.0.0.1:1/' >> `+dir+`/murmur.yaml; echo pwned > `+dir+`/murmur.lock`) + `]}, {"text": "done"}]`
		trustProject(t, dir, attack, nil, "  shell:\n    allow: [sh]\n", true)
		state := trustedState(t, dir)
		stdout, stderr, code := runMur(work, []string{"HOME=" + filepath.Join(dir, ".home")}, "run", "--manifest", filepath.Join(dir, "murmur.yaml"), "--workdir", ".", "--task", "go")
		if code != 0 || !strings.HasSuffix(stdout, "status:  ok\ndone\n") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if got := trustedState(t, dir); got != state {
			t.Errorf("a command in a workdir of its own changed the project:\nbefore:\n%s\nafter:\n%s", state, got)
		}
		if b, _ := os.ReadFile(filepath.Join(work, "stolen.txt")); strings.Contains(string(b), "sk-dotenv") {
			t.Errorf("a command in a workdir of its own read the project's .env: %q", b)
		}
	})
}

// A WASM tool (and the driver) with the project directory as its preopen
// must not read .env nor change or create murmur.yaml, murmur.lock, .env
// or .murmur/: they are hidden from the guest like tools/ and the trace,
// so a capsule of WASM guests alone still runs there.
func TestWasmToolCannotReachTrustedFilesInWorkdir(t *testing.T) {
	attack := " ; read .env ; ls . ; rename task.md murmur.yaml ; unlink murmur.lock ; open murmur.lock create ; " +
		"open .env create ; rename task.md .env ; symlink task.md .env ; link task.md .env ; mkdir .murmur/x ; "
	turns := `[{"tool_calls": [{"id": "a", "name": "fsattack", "input": {"c": "` + attack + `"}}]}, {"text": "done"}]`
	// The input arrives as JSON, so the tool's first and last commands are
	// its braces, which it does not know.
	const wasmAttackResults = "err=unknown command {\"c\":\"\n" +
		"errno=ENOENT\nentries=task.md\nerrno=EACCES\nerrno=ENOENT\nerrno=EACCES\nerrno=EACCES\n" +
		"errno=EACCES\nerrno=EACCES\nerrno=EACCES\nerrno=ENOENT\n" +
		"err=unknown command \"}\n"
	for _, dotenv := range []bool{true, false} {
		t.Run(fmt.Sprintf("with .env %v", dotenv), func(t *testing.T) {
			dir := t.TempDir()
			trustProject(t, dir, turns, []string{"fsattack"}, "", dotenv)
			state := trustedState(t, dir)
			stdout, stderr, code := runMur(dir, nil, "run", "-v", "--workdir", ".", "--task", "TRUSTED_TEST_SECRET=planted-by-a-guest")
			if code != 0 || !strings.HasSuffix(stdout, "status:  ok\ndone\n") {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if strings.Contains(stdout, "sk-dotenv") {
				t.Errorf("the WASM tool read .env:\n%s", stdout)
			}
			if got := trustedState(t, dir); got != state {
				t.Errorf("the WASM tool changed what the next run trusts:\nbefore:\n%s\nafter:\n%s", state, got)
			}
			// Every attack failed, as if the names did not exist (creating
			// one is refused), and the guest's listing shows only the task.
			if !strings.Contains(stdout, wasmAttackResults) {
				t.Errorf("the attack's outcomes are not %q:\n%s", wasmAttackResults, stdout)
			}
		})
	}
}

// tree2 lists every path under dir with its size, to compare a refused
// run's project before and after.
func tree2(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s %d", rel, fi.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// asNobody makes c run a copy of mur as uid 65534 over tree, which it
// chowns to that user, in a cgroup delegated to it (a capsule with a
// native tool needs a scope). It is a no-op unless the tests run as root.
func asNobody(t *testing.T, tree string, c *exec.Cmd) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	mur := filepath.Join(tree, "mur")
	if err := copyFile(env.mur, mur); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(tree, "cache")
	if err := os.Mkdir(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := chownTree(tree, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	inScope := cgrouptest.Delegate(t, 65534)
	c.Path, c.Args[0] = mur, mur
	c.Env = append(c.Env, "MUR_CACHE_DIR="+cache)
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	inScope(c)
}

// The manifest copy a --workdir gets is for guests to read: a literal
// inference.api_key in the manifest must not reach them through it.
func TestWorkdirManifestCopyCarriesNoKey(t *testing.T) {
	const key = "sk-literal-in-the-manifest-0123456789"
	dir, work := t.TempDir(), t.TempDir()
	trustProject(t, dir, `[{"text": "done"}]`, nil, "", false)
	path := filepath.Join(dir, "murmur.yaml")
	y, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	y = []byte(strings.Replace(string(y), "  model: scripted-model\n", "  model: scripted-model\n  api_key: "+key+"\n", 1))
	if err := os.WriteFile(path, y, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runMur(dir, nil, "run", "--workdir", work, "--task", "hello")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	copied, err := os.ReadFile(filepath.Join(work, "murmur.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(copied), key) || !strings.Contains(string(copied), "api_key:") {
		t.Errorf("the workdir's manifest copy is not the manifest with its key redacted:\n%s", copied)
	}
}
