package launch_test

// These tests drive the real mur binary, built once in TestMain, through
// whole sessions: artifacts are packed with `mur build`, installed with
// `mur install` and run with `mur run`, in temporary directories with their
// own HOME, so nothing outside them is read or written.
//
// Most use the test guest capsule-steps (guests/wat): a script capsule that
// calls spin, grow and secret, pulls extra@0.1.0 and sends an A2A message,
// handing each outcome to the native tool "record" (testdata/record),
// which appends it to record.txt in the workdir. The test manifest decides
// what is declared and what the limits are.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// env is what TestMain prepares for every test.
var env struct {
	mur   string // the mur binary
	greet string // the hello example's native tool, examples/hello/tools/greet
	pkgs  string // built .mur.zip packages: <name>-0.1.0.mur.zip
	cache string // MUR_CACHE_DIR shared by all runs (and all packages' tests)
	repo  string // the repository root
}

func TestMain(m *testing.M) {
	code, err := setup(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "setup:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

// setup builds the binaries and packages, then runs the tests, checking
// that no test wrote to the user's home.
func setup(m *testing.M) (int, error) {
	tmp, err := os.MkdirTemp("", "mur-launch-test-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	if env.repo, err = filepath.Abs(testguest.ModuleRoot()); err != nil {
		return 0, err
	}
	env.mur = filepath.Join(tmp, "mur")
	env.greet = filepath.Join(tmp, "greet")
	env.pkgs = filepath.Join(tmp, "pkgs")
	if env.cache, err = testguest.CacheDir(); err != nil {
		return 0, err
	}
	src := filepath.Join(tmp, "src")
	record := filepath.Join(src, "record-bin")
	if err := goBuildAll(map[string]string{env.mur: "./cmd/mur", env.greet: "./examples/hello/tools/greet", record: "./internal/launch/testdata/record"}); err != nil {
		return 0, err
	}
	if err := packTestArtifacts(src, record); err != nil {
		return 0, err
	}
	if err := packHostileArtifacts(src); err != nil {
		return 0, err
	}
	return testguest.Main(m), nil
}

// goBuildAll builds main packages of the repository (output file → package)
// concurrently: linking is mostly single-threaded, and the go commands share
// the build cache safely.
func goBuildAll(builds map[string]string) error {
	errs := make(chan error, len(builds))
	for out, pkg := range builds {
		go func() { errs <- goBuild(out, pkg) }()
	}
	var all []error
	for range builds {
		all = append(all, <-errs)
	}
	return errors.Join(all...)
}

// goBuild builds a main package of the repository into out.
func goBuild(out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = env.repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// packTestArtifacts builds the test artifacts with `mur build`: the WASM
// tools spin, grow and extra (the tools package's test guests) and the native
// tools record and secret (one binary, testdata/record, built as record).
func packTestArtifacts(src, record string) error {
	wasmTools := map[string]string{"spin": "tool-spin", "grow": "tool-grow", "extra": "tool-spin"}
	for name, guest := range wasmTools {
		dir := filepath.Join(src, name)
		files := map[string]string{name + ".wasm": testguest.Path(guest)}
		if err := artifactDir(dir, name, "", files); err != nil {
			return err
		}
	}
	for _, name := range []string{"record", "secret"} {
		dir := filepath.Join(src, name)
		if err := artifactDir(dir, name, "implementation: native\n", map[string]string{"bin/" + name: record}); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(env.pkgs, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"spin", "grow", "extra", "record", "secret"} {
		if _, stderr, code := runMur(src, nil, "build", filepath.Join(src, name), "-o", env.pkgs); code != 0 {
			return fmt.Errorf("mur build %s: exit %d\n%s", name, code, stderr)
		}
	}
	return nil
}

// artifactDir writes an artifact source dir: murmur.yaml plus files
// (archive name → file to copy).
func artifactDir(dir, name, extra string, files map[string]string) error {
	var req []string
	for rel, from := range files {
		req = append(req, rel)
		if err := copyFile(from, filepath.Join(dir, rel)); err != nil {
			return err
		}
	}
	yaml := fmt.Sprintf("name: %s\nversion: \"0.1.0\"\nruntime: tool\n%sdescription: test tool %s\nrequires_files: [%s]\n",
		name, extra, name, strings.Join(req, ", "))
	return os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}

// runMur runs mur in dir with a clean environment: PATH, a HOME of its own
// under dir unless extra sets one, the shared compilation cache, and extra.
func runMur(dir string, extra []string, args ...string) (stdout, stderr string, code int) {
	cmd := exec.Command(env.mur, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}, extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		code = -1
		errb.WriteString(err.Error())
	}
	return out.String(), errb.String(), code
}

// project is a capsule directory with capsule-steps as its component.
type project struct {
	t   *testing.T
	dir string
}

// newProject writes murmur.yaml (declaring tools, with capabilities) and
// capsule.wasm, and installs each package in install into the project
// store.
func newProject(t *testing.T, capabilities string, tools []string, install ...string) *project {
	t.Helper()
	p := &project{t: t, dir: t.TempDir()}
	var b strings.Builder
	b.WriteString("name: steps\nversion: \"0.1.0\"\nartifacts:\n")
	for _, name := range tools {
		fmt.Fprintf(&b, "  - name: %s\n    version: \"0.1.0\"\n    runtime: tool\n", name)
	}
	b.WriteString("capabilities:\n" + capabilities)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(testguest.Path("capsule-steps"), filepath.Join(p.dir, "capsule.wasm")); err != nil {
		t.Fatal(err)
	}
	for _, name := range append(append([]string{}, tools...), install...) {
		p.mur(0, "install", filepath.Join(env.pkgs, name+"-0.1.0.mur.zip"))
	}
	return p
}

// mur runs mur in the project and insists on exit status want.
func (p *project) mur(want int, args ...string) (stdout, stderr string) {
	p.t.Helper()
	stdout, stderr, code := runMur(p.dir, nil, args...)
	if code != want {
		p.t.Fatalf("mur %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout, stderr)
	}
	return stdout, stderr
}

// session is one `mur run --json --workdir` of a project.
type session struct {
	workdir, id    string
	stdout, stderr string
	record         string // record.txt: one line per capsule step
	took           time.Duration
	launchLine     map[string]any
	sessionDir     string
}

// run runs the capsule with --json in a fresh workdir holding peer.txt.
func (p *project) run(want int, peer string) *session {
	p.t.Helper()
	s := &session{workdir: p.t.TempDir()}
	if err := os.WriteFile(filepath.Join(s.workdir, "peer.txt"), []byte(peer), 0o644); err != nil {
		p.t.Fatal(err)
	}
	start := time.Now()
	s.stdout, s.stderr = p.mur(want, "run", "--json", "--workdir", s.workdir)
	s.took = time.Since(start)
	if b, err := os.ReadFile(filepath.Join(s.workdir, "record.txt")); err == nil {
		s.record = string(b)
	}
	if want == 0 {
		if err := json.Unmarshal([]byte(s.stdout), &s.launchLine); err != nil {
			p.t.Fatalf("--json stdout is not one JSON object: %v\n%s", err, s.stdout)
		}
		s.id, _ = s.launchLine["session_id"].(string)
		s.sessionDir = filepath.Join(s.workdir, ".murmur", s.id)
	}
	return s
}

// steps returns record.txt's lines: the outcome of each capsule step.
func (s *session) steps() []string {
	return strings.Split(strings.TrimSuffix(s.record, "\n"), "\n")
}

func TestHelloExampleRuns(t *testing.T) {
	testHelloExample(t, func(t *testing.T) (flag string, env []string) {
		reg := filepath.Join(t.TempDir(), "registry")
		return "local", []string{"HOME=" + reg}
	})
}

// The same path through a real HTTP registry on loopback: build, publish,
// install with the lock, stage and run.
func TestHelloExampleRunsFromHTTPRegistry(t *testing.T) {
	testHelloExample(t, func(t *testing.T) (flag string, env []string) {
		const key = "test-key"
		srv := httptest.NewServer(registry.NewServer(t.TempDir(), registry.WithAPIKey(key)))
		t.Cleanup(srv.Close)
		return srv.URL, []string{registry.APIKeyEnv + "=" + key}
	})
}

// testHelloExample publishes the example's tools to the registry newReg
// sets up (its --registry value and the environment mur needs for it),
// installs them pinned, and runs the example capsule.
func testHelloExample(t *testing.T, newReg func(t *testing.T) (flag string, env []string)) {
	if runtime.GOOS == "windows" {
		t.Skip("the example's native tool is built for unix shells")
	}
	hello := filepath.Join(env.repo, "examples", "hello")
	tmp := t.TempDir()
	proj, src := filepath.Join(tmp, "hello"), filepath.Join(tmp, "src")
	for _, f := range []string{"murmur.yaml", "capsule.wasm"} {
		if err := copyFile(filepath.Join(hello, f), filepath.Join(proj, f)); err != nil {
			t.Fatal(err)
		}
	}
	// What publish.sh does, into temporary directories.
	if err := copyFile(env.greet, filepath.Join(src, "greet", "bin", "greet")); err != nil {
		t.Fatal(err)
	}
	copies := map[string]string{
		"greet/murmur.yaml":          "tools/greet/murmur.yaml",
		"word-count/murmur.yaml":     "tools/word-count/murmur.yaml",
		"word-count/word-count.wasm": "tools/word-count/word-count.wasm",
	}
	for to, from := range copies {
		if err := copyFile(filepath.Join(hello, from), filepath.Join(src, to)); err != nil {
			t.Fatal(err)
		}
	}
	regFlag, regEnv := newReg(t)
	for _, tool := range []string{"word-count", "greet"} {
		if _, stderr, code := runMur(tmp, nil, "build", filepath.Join(src, tool), "-o", tmp); code != 0 {
			t.Fatalf("mur build %s: exit %d\n%s", tool, code, stderr)
		}
		if _, stderr, code := runMur(tmp, regEnv, "publish", filepath.Join(tmp, tool+"-0.1.0.mur.zip"), "--registry", regFlag); code != 0 {
			t.Fatalf("mur publish %s: exit %d\n%s", tool, code, stderr)
		}
	}
	// Install every declared artifact from that registry, pinned.
	if stdout, stderr, code := runMur(proj, regEnv, "install", "--registry", regFlag); code != 0 {
		t.Fatalf("mur install: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	lock, err := os.ReadFile(filepath.Join(proj, "murmur.lock"))
	if err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := runMur(proj, []string{"USER=alice", "ANTHROPIC_API_KEY=must-not-leak"}, "run", "-v")
	if code != 0 {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var id, workdir string
	for _, line := range strings.Split(stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "session: "); ok {
			id = v
		}
		if v, ok := strings.CutPrefix(line, "workdir: "); ok {
			workdir = v
		}
	}
	if !strings.HasPrefix(id, "ses_") || len(id) != 36 {
		t.Fatalf("no session line in stdout:\n%s", stdout)
	}
	if want := filepath.Join(proj, "workdir", id); workdir != want {
		t.Errorf("workdir line %q, want %q", workdir, want)
	}
	for _, want := range []string{"manifest: hello v0.1.0\n", "hello: 3/3 calling read-secrets", "status:  ok\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	result, err := os.ReadFile(filepath.Join(workdir, "out", "result.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"hello capsule report\nsession: " + id + "\n",
		"1. word-count (WASM tool, input: built-in sample)\n  status:  passed\n  summary: 10 words, 1 line, 69 characters\n",
		"  meta:    state_effect=read\n",
		"2. greet (native tool, input: \"alice\")\n  status:  passed\n  summary: Hello, alice!\n",
		`"home":".capsule-home"`,
		"3. read-secrets (not declared in murmur.yaml)\n  refused: tool 'read-secrets' is not declared in manifest allowlist\n",
		"\nresult: ok: both declared tools ran; the undeclared one was refused\n",
	} {
		if !strings.Contains(string(result), want) {
			t.Errorf("out/result.txt lacks %q; it is:\n%s", want, result)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(proj, "murmur.lock")); !bytes.Equal(after, lock) {
		t.Errorf("mur run changed an existing murmur.lock:\nbefore:\n%s\nafter:\n%s", lock, after)
	}
}

// TestFirstRunWritesLock: without murmur.lock, a run pins what it staged.
func TestFirstRunWritesLock(t *testing.T) {
	p := newProject(t, "  network:\n    allow: []\n", []string{"record"})
	p.run(0, "http://127.0.0.1:9/")
	lock, err := os.ReadFile(filepath.Join(p.dir, "murmur.lock"))
	if err != nil {
		t.Fatalf("no murmur.lock after the first run: %v", err)
	}
	if !strings.Contains(string(lock), "name: record\n  resolved_version: 0.1.0\n") {
		t.Errorf("murmur.lock does not pin record@0.1.0:\n%s", lock)
	}
}

func TestUndeclaredToolIsRefusedAndNothingRuns(t *testing.T) {
	// secret is installed in the project store but not declared.
	p := newProject(t, "  limits:\n    deadline_seconds: 30\n", []string{"record"}, "secret", "spin")
	s := p.run(0, "http://127.0.0.1:9/")
	steps := s.steps()
	for i, name := range []string{"spin", "grow", "secret"} {
		if want := fmt.Sprintf("tool '%s' is not declared in manifest allowlist", name); len(steps) <= i || steps[i] != want {
			t.Errorf("step %d recorded %q, want %q\nrecord.txt:\n%s", i+1, at(steps, i), want, s.record)
		}
	}
	if _, err := os.Stat(filepath.Join(s.workdir, "secret-ran")); err == nil {
		t.Error("the undeclared tool secret ran")
	}
	if _, err := os.Stat(filepath.Join(s.sessionDir, "tools", "secret")); err == nil {
		t.Error("the undeclared tool secret was staged")
	}
	if s.took > 20*time.Second {
		t.Errorf("the run took %s: the undeclared spin tool seems to have run", s.took)
	}
	// --json: one line with the six keys, the workdir as given.
	if n := strings.Count(s.stdout, "\n"); n != 1 {
		t.Errorf("--json printed %d lines on stdout, want 1:\n%s", n, s.stdout)
	}
	for _, k := range []string{"name", "pid", "session_id", "url", "version", "workdir"} {
		if _, ok := s.launchLine[k]; !ok {
			t.Errorf("launch line lacks %q: %s", k, s.stdout)
		}
	}
	if len(s.launchLine) != 6 || s.launchLine["workdir"] != s.workdir || s.launchLine["name"] != "steps" || s.launchLine["url"] != "" {
		t.Errorf("launch line %s, want name steps, url \"\", workdir %s", s.stdout, s.workdir)
	}
}

func TestSpinningToolStopsAtDeadline(t *testing.T) {
	p := newProject(t, "  limits:\n    deadline_seconds: 1\n", []string{"spin", "record"})
	start := time.Now()
	stdout, stderr, code := runMur(p.dir, nil, "run")
	took := time.Since(start)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"tool 'spin' exceeded its 1s execution deadline (capabilities.limits.deadline_seconds) and was interrupted",
		"error[E-RUN-001]: capsule execution exceeded its 1s deadline and was interrupted",
		"hint: raise capabilities.limits.deadline_seconds in murmur.yaml",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.HasSuffix(stdout, "status:  trapped\n") {
		t.Errorf("stdout does not end with the trapped status:\n%s", stdout)
	}
	if took > 10*time.Second {
		t.Errorf("the run took %s; the deadline is 1s", took)
	}
}

func TestGrowingToolHitsMemoryLimit(t *testing.T) {
	const limit = 4 << 20
	p := newProject(t, fmt.Sprintf("  limits:\n    memory_bytes: %d\n", limit), []string{"grow", "record"})
	s := p.run(0, "http://127.0.0.1:9/")
	got := at(s.steps(), 1)
	wantPrefix := "tool 'grow' exceeded its configured resource limits: linear memory growth to "
	wantSuffix := fmt.Sprintf(" bytes exceeds capabilities.limits.memory_bytes (%d)", limit)
	if !strings.HasPrefix(got, wantPrefix) || !strings.HasSuffix(got, wantSuffix) {
		t.Errorf("step 2 recorded %q, want %q…%q\nrecord.txt:\n%s", got, wantPrefix, wantSuffix, s.record)
	}
	if !strings.Contains(s.stderr, "tool call failed") {
		t.Errorf("stderr does not report the failed tool call:\n%s", s.stderr)
	}
}

func TestTamperedPullWritesNothing(t *testing.T) {
	p := newProject(t, "  network:\n    allow: []\n", []string{"record"}, "extra")
	pkg := filepath.Join(p.dir, ".murmur", "artifacts", "extra", "0.1.0", "extra-0.1.0.mur.zip")
	b, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(pkg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	p.run(0, "http://127.0.0.1:9/") // writes murmur.lock (there was none)
	lockPath := filepath.Join(p.dir, "murmur.lock")
	before, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	s := p.run(0, "http://127.0.0.1:9/")
	want := "artifact integrity check failed for extra@0.1.0: registry-reported hash does not match downloaded bytes"
	if got := at(s.steps(), 3); got != want {
		t.Errorf("pull recorded %q, want %q\nrecord.txt:\n%s", got, want, s.record)
	}
	if _, err := os.Stat(filepath.Join(s.sessionDir, "tools", "extra")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused pull left tools/extra behind (stat: %v)", err)
	}
	after, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("murmur.lock changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func TestSendOutsideNetworkAllowIsRefusedWithoutConnecting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	peer := "http://" + ln.Addr().String() + "/"
	p := newProject(t, "  network:\n    allow: [\"peer.example\", \"localhost:9\"]\n", []string{"record"})
	s := p.run(0, peer)
	ln.Close()
	want := fmt.Sprintf("network policy: '%s' not in capabilities.network.allow", peer)
	if got := at(s.steps(), 4); got != want {
		t.Errorf("send recorded %q, want %q\nrecord.txt:\n%s", got, want, s.record)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the peer saw %d connection(s); the policy check must come first", n)
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}
