package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/github"
	"github.com/mur-go/mur/internal/store/registry"
)

// examplePath locates a bundled example from this source file, so tests
// that change directory still find it.
func examplePath(t *testing.T, name string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "examples", "artifacts", name)
}

// sandbox gives a test its own HOME (so the global store is empty and
// private) and a capsule directory declaring the given artifacts, which
// becomes the working directory.
func sandbox(t *testing.T, artifacts ...string) (home, capsule string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", "")
	t.Setenv(registry.APIKeyEnv, "")
	// No test reaches GitHub: release sources go to a port nothing serves
	// unless the test starts a stand-in.
	t.Setenv(github.APIBaseEnv, "http://127.0.0.1:1")
	t.Setenv(github.TokenEnv, "")
	capsule = filepath.Join(t.TempDir(), "capsule")
	y := "name: demo\nversion: \"0.1.0\"\nartifacts:\n"
	for _, a := range artifacts {
		name, version, _ := strings.Cut(a, "@")
		y += "  - name: " + name + "\n    version: \"" + version + "\"\n"
	}
	if err := os.MkdirAll(capsule, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(capsule, "murmur.yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(capsule)
	return home, capsule
}

// buildExampleTool builds the example tool into a temporary directory.
func buildExampleTool(t *testing.T) string {
	t.Helper()
	src := examplePath(t, "canned-tool")
	out := t.TempDir()
	o := mur(t, "build", src, "-o", out)
	o.want(t, 0, "Built artifact: "+filepath.Join(out, "canned-tool-0.1.0.mur.zip"), "")
	return filepath.Join(out, "canned-tool-0.1.0.mur.zip")
}

// remote starts a registry server on loopback and exports its key.
func remote(t *testing.T) (url, dir string) {
	t.Helper()
	dir = t.TempDir()
	srv := httptest.NewServer(registry.NewServer(dir, registry.WithAPIKey("k")))
	t.Cleanup(srv.Close)
	t.Setenv(registry.APIKeyEnv, "k")
	return srv.URL, dir
}

func readLock(t *testing.T, dir string) *lockfile.Lock {
	t.Helper()
	l, err := lockfile.Read(filepath.Join(dir, lockfile.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestBuildPublishInstallLockRemote(t *testing.T) {
	_, capsule := sandbox(t, "canned-tool@0.1.0")
	zip := buildExampleTool(t)
	url, _ := remote(t)
	mur(t, "publish", zip, "--registry", url).want(t, 0, "Published canned-tool@0.1.0\n", "")
	mur(t, "publish", zip, "--registry", url).want(t, 1, "", "error[E-REG-003]: artifact canned-tool@0.1.0 already exists in registry\n  hint: ")

	o := mur(t, "install", "canned-tool@0.1.0", "--registry", url)
	stored := filepath.Join(capsule, ".murmur", "artifacts", "canned-tool", "0.1.0", "canned-tool-0.1.0.mur.zip")
	o.want(t, 0, "Installed canned-tool@0.1.0 → "+stored, "")
	data, err := os.ReadFile(stored)
	if err != nil {
		t.Fatal(err)
	}
	built, _ := os.ReadFile(zip)
	if !bytes.Equal(data, built) {
		t.Error("installed bytes differ from the built package")
	}
	l := readLock(t, capsule)
	e, ok := l.Find("canned-tool")
	if !ok || e.ResolvedVersion != "0.1.0" || len(e.SHA256.Wasm) != 64 || !strings.Contains(o.stdout, e.SHA256.Wasm[:12]) {
		t.Errorf("lock entry %+v", e)
	}
	// No ref: every declared artifact, same pin.
	mur(t, "install", "--registry", url).want(t, 0, "installed 1 artifact into ", "")
	mur(t, "list").want(t, 0, "NAME         VERSION  RUNTIME  PLATFORMS\ncanned-tool  0.1.0    tool     —\n", "")
}

func TestInstallTamperedPackageWritesNothing(t *testing.T) {
	_, capsule := sandbox(t, "canned-tool@0.1.0")
	zip := buildExampleTool(t)
	url, dir := remote(t)
	mur(t, "publish", zip, "--registry", url).want(t, 0, "Published", "")
	stored := filepath.Join(dir, "canned-tool", "0.1.0", "canned-tool-0.1.0.mur.zip")
	data, _ := os.ReadFile(stored)
	data[len(data)/2] ^= 0xff
	os.WriteFile(stored, data, 0o644)

	for _, args := range [][]string{{"install", "canned-tool@0.1.0", "--registry", url}, {"install", "--registry", url}} {
		o := mur(t, args...)
		// A single install reports on stderr, a batch in its report on stdout.
		o.wantOutput(t, 1, "error[E-REG-002]: artifact integrity check failed for canned-tool@0.1.0")
		if _, err := os.Stat(filepath.Join(capsule, ".murmur")); !os.IsNotExist(err) {
			t.Errorf("%v wrote the project store", args)
		}
		if _, err := os.Stat(filepath.Join(capsule, lockfile.FileName)); !os.IsNotExist(err) {
			t.Errorf("%v wrote murmur.lock", args)
		}
	}
}

func TestInstallLockConflict(t *testing.T) {
	_, capsule := sandbox(t, "canned-tool@0.1.0")
	zip := buildExampleTool(t)
	mur(t, "publish", zip).want(t, 0, "Published canned-tool@0.1.0", "")
	pinned := "lock_version: 1\nartifacts:\n- name: canned-tool\n  resolved_version: 0.1.0\n  sha256:\n    wasm: " + strings.Repeat("ab", 32) + "\n"
	lockPath := filepath.Join(capsule, lockfile.FileName)
	os.WriteFile(lockPath, []byte(pinned), 0o644)
	for _, args := range [][]string{{"install", "canned-tool@0.1.0"}, {"install"}} {
		o := mur(t, args...)
		o.wantOutput(t, 1, "error[E-REG-005]: murmur.lock conflict for 'canned-tool': pinned canned-tool@0.1.0 (sha256 abab")
		o.wantOutput(t, 1, "remove the 'canned-tool' entry from murmur.lock")
		if b, _ := os.ReadFile(lockPath); string(b) != pinned {
			t.Errorf("%v changed the lock:\n%s", args, b)
		}
		if _, err := os.Stat(filepath.Join(capsule, ".murmur")); !os.IsNotExist(err) {
			t.Errorf("%v stored the artifact despite the conflict", args)
		}
	}
	os.WriteFile(lockPath, []byte("lock_version: 7\nartifacts: []\n"), 0o644)
	mur(t, "install").want(t, 1, "", "error[E-RUN-003]: invalid murmur.lock: unsupported lock_version 7 (expected 1)")
}

func TestLocalRegistryWorkflow(t *testing.T) {
	home, capsule := sandbox(t, "canned-tool@0.1.0", "missing@1.0.0")
	zip := buildExampleTool(t)
	o := mur(t, "publish", zip)
	o.want(t, 0, "Published canned-tool@0.1.0\n  wasm · ", "")
	o.want(t, 0, filepath.Join(home, ".murmur", "artifacts", "canned-tool", "0.1.0", "canned-tool-0.1.0.mur.zip"), "")
	mur(t, "list", "-g").want(t, 0, "canned-tool  0.1.0    tool     —", "")
	mur(t, "list").want(t, 0, "No artifacts found.\n", "")

	// One failure does not stop the others from being installed, but
	// murmur.lock pins all of them or none: it is left as it was.
	lockPath := filepath.Join(capsule, lockfile.FileName)
	const lockBefore = "lock_version: 1\nartifacts: []\n"
	if err := os.WriteFile(lockPath, []byte(lockBefore), 0o644); err != nil {
		t.Fatal(err)
	}
	o = mur(t, "install")
	o.want(t, 1, "Installed canned-tool@0.1.0 → ", "")
	o.want(t, 1, "1 of 2 artifacts failed to install:\n  missing@1.0.0:\n    error[E-REG-001]: artifact missing@1.0.0 not found in registry\n      hint: searched the global store", "")
	o.want(t, 1, "installed 1 artifact into "+filepath.Join(capsule, ".murmur", "artifacts")+"; "+lockPath+" left as it was", "")
	if o.stderr != "" {
		t.Errorf("the batch report belongs on stdout; stderr has:\n%s", o.stderr)
	}
	if b, err := os.ReadFile(lockPath); err != nil || string(b) != lockBefore {
		t.Errorf("a failed install changed murmur.lock: %q, %v", b, err)
	}
	mur(t, "list", "--all").want(t, 0, "SCOPE    NAME         VERSION  RUNTIME  PLATFORMS\nproject  canned-tool  0.1.0    tool     —\nglobal   canned-tool  0.1.0    tool     —\n", "")
	mur(t, "list", "--json").want(t, 0, `"packaging": "wasm"`, "")

	// A package file goes to the store without a pin.
	os.Remove(filepath.Join(capsule, lockfile.FileName))
	mur(t, "install", zip).want(t, 0, "Installed canned-tool@0.1.0 → "+filepath.Join(capsule, ".murmur"), "")
	if _, err := os.Stat(filepath.Join(capsule, lockfile.FileName)); !os.IsNotExist(err) {
		t.Error("installing a file wrote murmur.lock")
	}
	// -g with a ref never pins either.
	mur(t, "install", "-g", "canned-tool@0.1.0").want(t, 0, "Installed canned-tool@0.1.0 → "+home, "")
	if _, err := os.Stat(filepath.Join(capsule, lockfile.FileName)); !os.IsNotExist(err) {
		t.Error("install -g wrote murmur.lock")
	}
}

func TestArtifactCommandErrors(t *testing.T) {
	_, capsule := sandbox(t)
	outside := t.TempDir()
	reserved := t.TempDir()
	os.WriteFile(filepath.Join(reserved, "murmur.yaml"), []byte("name: r\nversion: latest\nruntime: tool\nrequires_files: [r.wasm]\n"), 0o644)
	os.WriteFile(filepath.Join(reserved, "r.wasm"), []byte("\x00asm\x0d\x00\x01\x00"), 0o644)
	for _, tc := range []struct {
		dir    string
		args   []string
		code   int
		stderr string
	}{
		{capsule, []string{"build", outside}, 1, "error[E-IO-001]: manifest not found: "},
		{capsule, []string{"build", "nope"}, 1, "error[E-IO-001]: artifact directory nope not found"},
		{reserved, []string{"build"}, 0, ""},
		{reserved, []string{"publish"}, 1, "error[E-REG-004]: version 'latest' is reserved and cannot be published\n  hint: latest, stable and edge are reserved"},
		{capsule, []string{"publish"}, 1, "error[E-IO-001]: default artifact path " + filepath.Join(capsule, "demo-0.1.0.mur.zip") + " not found. Run 'mur build' first or pass an explicit artifact path."},
		{outside, []string{"publish"}, 1, "error[E-IO-001]: no artifact path given and no murmur.yaml in "},
		{capsule, []string{"publish", "x.mur.zip"}, 1, "error[E-IO-001]: cannot read x.mur.zip"},
		{capsule, []string{"publish", filepath.Join(reserved, "r.wasm")}, 1, "error[E-IO-003]: failed to parse murmur.yaml in "},
		{capsule, []string{"publish", "--platform", "linux", "x.mur.zip"}, 1, "error[E-IO-003]: invalid platform 'linux' (expected os-arch, e.g. darwin-aarch64)"},
		{capsule, []string{"publish", filepath.Join(reserved, "r-latest.mur.zip"), "--registry", "http://127.0.0.1:1"}, 1, "E-REG-004"},
		{outside, []string{"install", "a@1"}, 1, "error[E-IO-001]: no project root found (no murmur.yaml in current or parent directories)\n  hint: "},
		{capsule, []string{"install", "a@"}, 1, "error[E-IO-003]: artifact reference must be in the format <name@version>"},
		{capsule, []string{"install", "a@1@2"}, 1, "artifact reference must be in the format <name@version>"},
		{capsule, []string{"install", "npm:x"}, 1, "error[E-IO-003]: unsupported artifact source prefix 'npm'"},
		{capsule, []string{"install", "github:o/r"}, 1, "invalid github artifact reference 'github:o/r' (expected github:<owner>/<repo>@<tag>)"},
		{capsule, []string{"install", "github:o/r@v1"}, 1, "error[E-IO-003]: reading release tags/v1 from github:o/r failed: "},
		{capsule, []string{"install", "github:o/r@v1", "--registry", "local"}, 2, "--registry and --plain-http do not apply to 'github:o/r@v1'"},
		{capsule, []string{"install", "tool", "--plain-http"}, 2, "--plain-http applies only to an oci:// registry"},
		{capsule, []string{"install", "github:o/r/x@v1"}, 1, "error[E-IO-003]: invalid github repo 'o/r/x' (expected owner/repo)"},
		{capsule, []string{"install", "a@1", "--registry", "http://127.0.0.1:1"}, 1, "error[E-IO-003]: NEXUS_API_KEY is required for remote registry mode. Set it or use local mode."},
		{capsule, []string{"install", "--all-platforms"}, 2, "--all-platforms requires an artifact reference (name@version)"},
		{capsule, []string{"install", "--all-platforms", "a@1", "--registry", "local"}, 2, "--registry and --plain-http do not apply to --all-platforms"},
		{capsule, []string{"install", "--all-platforms", "a"}, 1, "error[E-IO-003]: artifact reference must be in the format <name@version>"},
		{capsule, []string{"install"}, 0, ""},
		{capsule, []string{"list", "-g", "--all"}, 2, "-g and --all cannot be used together"},
		{capsule, []string{"build", "--version", "2"}, 2, "--version and --summary only apply with --skill"},
		{capsule, []string{"build", "a", "b"}, 2, "unexpected argument \"b\""},
		{capsule, []string{"registry", "serve"}, 1, "error[E-IO-003]: NEXUS_API_KEY is required to serve a registry"},
	} {
		t.Chdir(tc.dir)
		o := mur(t, tc.args...)
		if o.code != tc.code || !strings.Contains(o.stderr, tc.stderr) {
			t.Errorf("mur %v: exit %d, stderr %q; want exit %d, stderr containing %q", tc.args, o.code, o.stderr, tc.code, tc.stderr)
		}
	}
	t.Chdir(capsule)
	mur(t, "install").want(t, 0, "No artifacts in manifest.", "")
}

func TestBuildSkillCommand(t *testing.T) {
	sandbox(t)
	src := examplePath(t, "review-skill")
	work := t.TempDir()
	t.Chdir(work)
	mur(t, "build", "--skill", src).want(t, 0, "Built artifact: "+filepath.Join(work, "review-skill-0.1.0.mur.zip"), "")
	mur(t, "build", "--skill", "team-review", src, "--version", "2.0.0").want(t, 0, "team-review-2.0.0.mur.zip", "")
	mur(t, "build", "--skill=named", src).want(t, 0, "named-0.1.0.mur.zip", "")
	mur(t, "publish", "named-0.1.0.mur.zip").want(t, 0, "Published named@0.1.0\n  static · ", "")
	mur(t, "list", "-g").want(t, 0, "named  0.1.0    skill    —", "")
}

func TestArtifactHelpTeaches(t *testing.T) {
	for _, cmd := range []string{"build", "publish", "install", "list", "registry serve"} {
		o := mur(t, append(strings.Fields(cmd), "--help")...)
		if o.code != 0 || !strings.Contains(o.stdout, "Examples:") || !strings.Contains(o.stdout, "mur "+strings.Fields(cmd)[0]) {
			t.Errorf("mur %s --help lacks examples:\n%s", cmd, o.stdout)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// wrote, if made, is signalled after each write, so a test waits for
	// output instead of polling.
	wrote chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.b.Write(p)
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return n, err
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestRegistryServe(t *testing.T) {
	sandbox(t)
	t.Setenv(registry.APIKeyEnv, "serve-key")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	stdout.wrote = make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		done <- execute(ctx, []string{"registry", "serve", "--dir", dir, "--addr", "127.0.0.1:0"}, &stdout, &stderr)
	}()
	addr := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)`)
	var url string
	for timeout := time.After(10 * time.Second); url == ""; {
		if m := addr.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
			continue
		}
		select {
		case <-stdout.wrote:
		case err := <-done:
			t.Fatalf("server did not start: %v: %q %q", err, stdout.String(), stderr.String())
		case <-timeout:
			t.Fatalf("server did not start: %q %q", stdout.String(), stderr.String())
		}
	}
	zip := buildExampleTool(t)
	mur(t, "publish", zip, "--registry", url).want(t, 0, "Published canned-tool@0.1.0", "")
	t.Setenv(registry.APIKeyEnv, "wrong")
	mur(t, "install", "canned-tool@0.1.0", "--registry", url).want(t, 1, "", "error[E-IO-003]: registry authentication failed for "+url+". Check NEXUS_API_KEY and try again.")
	req, _ := http.NewRequest("GET", url+"/v1/artifacts/canned-tool/0.1.0", nil)
	req.Header.Set("Authorization", "Bearer serve-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 || len(resp.Header.Get(registry.SHA256Header)) != 64 {
		t.Errorf("download: %v %v", resp, err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve returned %v", err)
	}
	if !strings.Contains(stdout.String(), "Registry stopped.") {
		t.Errorf("stdout %q", stdout.String())
	}
}

func TestNativeArtifactPlatforms(t *testing.T) {
	cur := artifact.CurrentPlatform()
	if cur == artifact.UnknownPlatform {
		t.Skip("no native platform name for this host")
	}
	_, capsule := sandbox(t, "lister@1.0.0")
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "murmur.yaml"), []byte("name: lister\nversion: \"1.0.0\"\nruntime: tool\nimplementation: native\nrequires_files: [bin/lister]\n"), 0o644)
	os.MkdirAll(filepath.Join(src, "bin"), 0o755)
	os.WriteFile(filepath.Join(src, "bin", "lister"), []byte("#!/bin/sh\nls\n"), 0o755)
	mur(t, "build", src).want(t, 0, "(tool, native)", "")
	zip := filepath.Join(src, "lister-1.0.0.mur.zip")
	mur(t, "publish", zip).want(t, 0, "Platform: "+cur+" (auto-detected)\nPublished lister@1.0.0\n  native", "")
	mur(t, "publish", zip, "--platform", "plan9-mips").want(t, 0, "lister-1.0.0-plan9-mips.mur.zip", "")
	mur(t, "list", "-g").want(t, 0, "lister  1.0.0    tool     plan9-mips, "+cur, "")
	// Installed for this machine, where Murmur would report it missing.
	mur(t, "install").want(t, 0, "Installed lister@1.0.0 → "+filepath.Join(capsule, ".murmur", "artifacts", "lister", "1.0.0", "lister-1.0.0-"+cur+".mur.zip"), "")
	if _, ok := readLock(t, capsule).Find("lister"); !ok {
		t.Error("native artifact not pinned")
	}
}

// -o names a directory that does not exist yet when it ends in a
// separator or its last element has no extension: it is created and the
// package written inside; a name with another extension is refused.
func TestBuildOutputDirectoryToBe(t *testing.T) {
	src := examplePath(t, "canned-tool")
	for _, out := range []string{"dist", filepath.Join("out", "pkgs"), "slash" + string(filepath.Separator)} {
		dir := t.TempDir()
		t.Chdir(dir)
		want := filepath.Join(dir, strings.TrimSuffix(out, string(filepath.Separator)), "canned-tool-0.1.0.mur.zip")
		mur(t, "build", src, "-o", out).want(t, 0, "Built artifact: "+want, "")
		if fi, err := os.Stat(want); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("-o %s: %v", out, err)
		}
	}
	t.Chdir(t.TempDir())
	mur(t, "build", src, "-o", "pkg.zip").want(t, 1, "", "error[E-IO-003]: output path must end with .mur.zip")
}
